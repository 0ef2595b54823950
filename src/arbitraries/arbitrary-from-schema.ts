import fc from 'fast-check';
import type { Contract } from '../contract/index.ts';
import { HarnessError } from '../errors.ts';
import { int64 } from './int64.ts';
import { type SchemaNode, type SchemaSource, objectShape, resolveSchema, typesOf } from './schema-node.ts';
import { DEFAULT_NAME_LIMIT, taggedName } from './tagged-name.ts';

/** A value generated from a schema: JSON, with int64 fields as bigint so they are exact. */
export type SchemaValue = string | number | bigint | boolean | null | SchemaValue[] | { [key: string]: SchemaValue };

const LONG_NAME_LIMIT = 256;

export interface SchemaArbitraryOptions {
  /** Prefix of every generated `name`: `${nameTag} ${generated}`. Required when the schema has a name. */
  nameTag?: string;
  /** Upper bound of a whole name in UTF-16 code units; default DEFAULT_NAME_LIMIT (50). */
  maxNameLength?: number;
  /** The category ids the target accepts (--category-ids): categoryId is then one of these. */
  categoryIds?: readonly bigint[];
  /**
   * Names beyond the DEFAULT_NAME_LIMIT code units a server may bound names to (up to 256): it may refuse them
   * with 400, and must echo them exactly if it accepts them.
   */
  longNames?: boolean;
  /** Whether the optional `status` is sent; default 'maybe'. */
  withStatus?: 'always' | 'never' | 'maybe';
}

/**
 * Valid values of a schema of the spec (`#/components/schemas/NewPet`, or a schema node such as a
 * parameter's), derived from it: object/required/properties, allOf, $ref, enum, string, integer (int64
 * as bigint over the whole range, biased toward its edges), number, boolean, array.
 */
export function arbitraryFromSchema(contract: Contract, source: SchemaSource, options: SchemaArbitraryOptions = {}): fc.Arbitrary<SchemaValue> {
  return fromNode(contract, resolveSchema(contract, source), options, undefined);
}

function fromNode(contract: Contract, node: SchemaNode, options: SchemaArbitraryOptions, field: string | undefined): fc.Arbitrary<SchemaValue> {
  if (node.const !== undefined) return fc.constant(node.const as SchemaValue);
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as SchemaValue[]));
  const types = [...typesOf(node)];
  if (types.length === 0) throw new HarnessError('ERR_SPEC', `schema${field ? ` of ${field}` : ''} has no type to generate from`);
  const arbitraries = types.map((type) => fromType(contract, node, type, options, field));
  return arbitraries.length === 1 ? (arbitraries[0] as fc.Arbitrary<SchemaValue>) : fc.oneof(...arbitraries);
}

function fromType(contract: Contract, node: SchemaNode, type: string, options: SchemaArbitraryOptions, field: string | undefined): fc.Arbitrary<SchemaValue> {
  switch (type) {
    case 'object':
      return objectArbitrary(contract, node, options);
    case 'array': {
      const items = fromNode(contract, resolveSchema(contract, (node.items ?? {}) as SchemaNode), options, field);
      return fc.array(items, { minLength: numberOr(node.minItems, 0), maxLength: numberOr(node.maxItems, 4) });
    }
    case 'string':
      return stringArbitrary(node, options, field);
    case 'integer':
      return integerArbitrary(node, options, field);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: numberOr(node.minimum, -1e9), max: numberOr(node.maximum, 1e9) });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      throw new HarnessError('ERR_SPEC', `cannot generate values of type ${type}`);
  }
}

function objectArbitrary(contract: Contract, node: SchemaNode, options: SchemaArbitraryOptions): fc.Arbitrary<SchemaValue> {
  const shape = objectShape(contract, node);
  const withStatus = options.withStatus ?? 'maybe';
  const model: Record<string, fc.Arbitrary<SchemaValue>> = {};
  const requiredKeys: string[] = [];
  for (const [name, schema] of shape.properties) {
    if (name === 'status' && withStatus === 'never' && !shape.required.has(name)) continue;
    model[name] = fromNode(contract, schema, options, name);
    if (shape.required.has(name) || (name === 'status' && withStatus === 'always')) requiredKeys.push(name);
  }
  return fc.record(model, { requiredKeys }) as fc.Arbitrary<SchemaValue>;
}

function stringArbitrary(node: SchemaNode, options: SchemaArbitraryOptions, field: string | undefined): fc.Arbitrary<SchemaValue> {
  if (field === 'name') {
    // Every pet the suite creates must be recognisable on a shared store.
    if (options.nameTag === undefined) throw new HarnessError('ERR_INTERNAL', 'arbitraryFromSchema: a schema with a name needs options.nameTag');
    if (options.longNames) {
      const minGeneratedLength = Math.max(0, DEFAULT_NAME_LIMIT - options.nameTag.length);
      return taggedName({ tag: options.nameTag, maxLength: LONG_NAME_LIMIT, maxGeneratedLength: LONG_NAME_LIMIT, minGeneratedLength });
    }
    return taggedName({ tag: options.nameTag, maxLength: options.maxNameLength ?? DEFAULT_NAME_LIMIT });
  }
  return fc.string({ unit: 'grapheme', minLength: numberOr(node.minLength, 0), maxLength: numberOr(node.maxLength, 20) });
}

function integerArbitrary(node: SchemaNode, options: SchemaArbitraryOptions, field: string | undefined): fc.Arbitrary<SchemaValue> {
  if (field === 'categoryId' && options.categoryIds && options.categoryIds.length > 0) return fc.constantFrom(...options.categoryIds);
  const minimum = typeof node.minimum === 'number' ? node.minimum : undefined;
  const maximum = typeof node.maximum === 'number' ? node.maximum : undefined;
  if (node.format === 'int64') {
    return int64({
      ...(minimum === undefined ? {} : { min: BigInt(minimum) }),
      ...(maximum === undefined ? {} : { max: BigInt(maximum) }),
    });
  }
  const min = minimum ?? -(2 ** 31);
  const max = maximum ?? 2 ** 31 - 1;
  // A bounded parameter (limit 1..100) breaks at its bounds first.
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(min, max) }, { weight: 3, arbitrary: fc.integer({ min, max }) });
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}
