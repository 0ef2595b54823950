import type { Contract } from '../contract/index.ts';
import { HarnessError } from '../errors.ts';

/** A JSON Schema node as the spec writes it (OpenAPI 3.1 schemas are JSON Schema 2020-12). */
export type SchemaNode = { readonly [key: string]: unknown };

/** A schema or the `#/components/schemas/Name` it is referred to by. */
export type SchemaSource = string | SchemaNode;

/** An object schema flattened: allOf parts merged, every property schema resolved. */
export interface ObjectShape {
  readonly properties: ReadonlyArray<readonly [name: string, schema: SchemaNode]>;
  readonly required: ReadonlySet<string>;
}

const COMPONENT_PREFIX = '#/components/schemas/';

/** Follows `$ref` (repeatedly) to the component schema it names. */
export function resolveSchema(contract: Contract, source: SchemaSource): SchemaNode {
  let node: SchemaNode = typeof source === 'string' ? { $ref: source } : source;
  for (let depth = 0; typeof node.$ref === 'string'; depth++) {
    const ref = node.$ref;
    const name = ref.startsWith(COMPONENT_PREFIX) ? ref.slice(COMPONENT_PREFIX.length) : undefined;
    const target = name === undefined ? undefined : contract.document.components.schemas[name];
    if (!target || depth > 32) throw new HarnessError('ERR_SPEC', `cannot resolve schema ${ref}`);
    node = target;
  }
  return node;
}

/** The JSON types a schema admits ('integer' stands for integral numbers only). */
export function typesOf(node: SchemaNode): ReadonlySet<string> {
  if (Array.isArray(node.enum)) return new Set(node.enum.map(jsonTypeOf));
  if (typeof node.type === 'string') return new Set([node.type]);
  if (Array.isArray(node.type)) return new Set(node.type.filter((t): t is string => typeof t === 'string'));
  if (Array.isArray(node.allOf) || node.properties !== undefined) return new Set(['object']);
  return new Set();
}

/** Merges an object schema with its allOf parts (the way Pet extends NewPet). */
export function objectShape(contract: Contract, source: SchemaSource): ObjectShape {
  const properties = new Map<string, SchemaNode>();
  const required = new Set<string>();
  const visit = (node: SchemaNode): void => {
    const resolved = resolveSchema(contract, node);
    for (const part of arrayOf(resolved.allOf)) visit(part);
    const props = (resolved.properties ?? {}) as Record<string, SchemaNode>;
    for (const [name, schema] of Object.entries(props)) properties.set(name, resolveSchema(contract, schema));
    for (const name of arrayOf(resolved.required)) if (typeof name === 'string') required.add(name);
  };
  visit(typeof source === 'string' ? { $ref: source } : source);
  return { properties: [...properties.entries()], required };
}

function arrayOf(value: unknown): SchemaNode[] {
  return Array.isArray(value) ? (value as SchemaNode[]) : [];
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' || typeof value === 'bigint') return Number.isInteger(Number(value)) ? 'integer' : 'number';
  return typeof value;
}
