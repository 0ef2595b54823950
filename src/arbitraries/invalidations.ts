import fc from 'fast-check';
import type { Contract } from '../contract/index.ts';
import { INT64_MAX, INT64_MIN, showValue, stringifyJson } from '../text/json.ts';
import { type SchemaArbitraryOptions, type SchemaValue, arbitraryFromSchema } from './arbitrary-from-schema.ts';
import type { InvalidCase, InvalidationKind } from './invalid-case.ts';
import { type SchemaNode, type SchemaSource, objectShape, typesOf } from './schema-node.ts';

/** One way to make a valid object invalid, with the cases it generates. */
export interface Invalidation {
  readonly name: string;
  readonly kind: InvalidationKind;
  readonly field: string | undefined;
  readonly arbitrary: fc.Arbitrary<InvalidCase>;
}

type Body = Record<string, SchemaValue>;
/** A replacement value: generated, or derived from the valid value it replaces. */
type Replacement = fc.Arbitrary<unknown> | ((current: SchemaValue | undefined) => unknown);
type FieldInvalidation = readonly [suffix: string, kind: InvalidationKind, replacement: Replacement];

const NON_INTEGRAL = fc.oneof(
  fc.constantFrom(1.5, -0.5, 0.1),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
);
const ABOVE_INT64 = [INT64_MAX + 1n, INT64_MAX + 2n, 2n ** 64n, 10n ** 30n];
const BELOW_INT64 = [INT64_MIN - 1n, INT64_MIN - 2n, -(2n ** 64n), -(10n ** 30n)];

/**
 * Every named way to make an object of a schema invalid, derived from it: each required field missing, each
 * field holding each JSON type its schema excludes (plus numeric strings and floats for integers),
 * enum values outside the enum, int64 fields beyond the range, and bodies that are not objects.
 * Values such as 1.0 or 1e3 are integers in JSON Schema, so they are never used as "not an integer".
 */
export function invalidationsOf(contract: Contract, source: SchemaSource, options: SchemaArbitraryOptions = {}): Invalidation[] {
  const shape = objectShape(contract, source);
  const valid = arbitraryFromSchema(contract, source, options) as fc.Arbitrary<Body>;
  // Field invalidations start from a body holding every field, so a derived value ([status]) has one.
  const full = arbitraryFromSchema(contract, source, { ...options, withStatus: 'always' }) as fc.Arbitrary<Body>;
  const out: Invalidation[] = [];

  for (const name of shape.required) {
    out.push(
      bodyInvalidation(
        `missing ${name}`,
        'missing-field',
        name,
        valid.map((body) => without(body, [name])),
      ),
    );
  }
  if (shape.required.size > 1) {
    out.push(
      bodyInvalidation(
        'no required field',
        'missing-field',
        undefined,
        valid.map((body) => without(body, [...shape.required])),
      ),
    );
  }
  for (const [field, schema] of shape.properties) {
    for (const [suffix, kind, replacement] of fieldInvalidations(schema)) {
      out.push(fieldInvalidation(`${field} ${suffix}`, kind, field, full, replacement));
    }
  }
  out.push(
    bodyInvalidation(
      'body as array',
      'not-object',
      undefined,
      valid.map((body) => [body]),
    ),
    bodyInvalidation('body as null', 'not-object', undefined, fc.constant(null)),
    bodyInvalidation(
      'body as string',
      'not-object',
      undefined,
      valid.map((body) => stringifyJson(body)),
    ),
    bodyInvalidation('body as number', 'not-object', undefined, fc.integer()),
    bodyInvalidation('body as boolean', 'not-object', undefined, fc.boolean()),
  );
  return out;
}

function fieldInvalidations(schema: SchemaNode): FieldInvalidation[] {
  const types = typesOf(schema);
  const numeric = types.has('integer') || types.has('number');
  const out: FieldInvalidation[] = [];
  if (!types.has('string')) out.push(['as string', 'wrong-value', fc.string({ minLength: 1, maxLength: 8 })]);
  if (numeric && !types.has('string')) out.push(['as numeric string', 'wrong-value', (current) => String(current)]);
  if (types.has('integer') && !types.has('number')) out.push(['as float', 'wrong-value', NON_INTEGRAL]);
  if (!numeric) out.push(['as number', 'wrong-value', fc.oneof(fc.integer(), NON_INTEGRAL)]);
  if (!types.has('boolean')) out.push(['as boolean', 'wrong-value', fc.boolean()]);
  if (!types.has('null')) out.push(['as null', 'wrong-value', fc.constant(null)]);
  if (!types.has('array')) out.push(['as array', 'wrong-value', (current) => [current]]);
  if (!types.has('object')) out.push(['as object', 'wrong-value', (current) => ({ value: current })]);
  if (Array.isArray(schema.enum)) out.push(...enumInvalidations(schema.enum));
  if (schema.format === 'int64') {
    out.push(['above int64', 'out-of-range', fc.constantFrom(...ABOVE_INT64)], ['below int64', 'out-of-range', fc.constantFrom(...BELOW_INT64)]);
  }
  return out;
}

function enumInvalidations(values: readonly unknown[]): FieldInvalidation[] {
  const allowed = new Set(values);
  const strings = values.filter((v): v is string => typeof v === 'string');
  const recased = strings.flatMap((v) => [v.toUpperCase(), v.charAt(0).toUpperCase() + v.slice(1)]).filter((v) => !allowed.has(v));
  const outside = fc.oneof(fc.constantFrom('', 'unknown'), fc.string({ minLength: 1, maxLength: 10 })).filter((v) => !allowed.has(v));
  const out: FieldInvalidation[] = [['outside the enum', 'wrong-value', outside]];
  if (recased.length > 0) out.push(['in another letter case', 'wrong-value', fc.constantFrom(...new Set(recased))]);
  return out;
}

function fieldInvalidation(name: string, kind: InvalidationKind, field: string, full: fc.Arbitrary<Body>, replacement: Replacement): Invalidation {
  const value = typeof replacement === 'function' ? fc.constant(replacement) : replacement;
  const arbitrary = fc.tuple(full, value).map(([base, generated]): InvalidCase => {
    const replaced = typeof replacement === 'function' ? replacement(base[field]) : generated;
    const body = { ...base, [field]: replaced };
    const rawBody = kind === 'out-of-range' ? stringifyJson(body) : undefined;
    return { name, kind, field, body, rawBody, label: `${name} (${showValue(replaced)})` };
  });
  return { name, kind, field, arbitrary };
}

function bodyInvalidation(name: string, kind: InvalidationKind, field: string | undefined, bodies: fc.Arbitrary<unknown>): Invalidation {
  const arbitrary = bodies.map((body): InvalidCase => {
    // Sent verbatim: a client may not be trusted to serialise null or a bare string as written.
    const rawBody = kind === 'not-object' ? stringifyJson(body) : undefined;
    return { name, kind, field, body, rawBody, label: `${name} (${showValue(body)})` };
  });
  return { name, kind, field, arbitrary };
}

function without(body: Body, fields: readonly string[]): Body {
  const copy = { ...body };
  for (const field of fields) delete copy[field];
  return copy;
}
