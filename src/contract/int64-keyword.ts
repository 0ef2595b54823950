import type { Code, KeywordCxt, KeywordDefinition } from 'ajv';
import type { Ajv2020Module } from './ajv-modules.ts';
import { INT64_MAX, INT64_MIN } from '../text/json.ts';
import type { SchemaObject } from './load-spec.ts';

/**
 * Ajv's own `type: integer` rejects bigint and its `minimum` skips it, so integer schemas are rewritten
 * to this keyword, which accepts an integral number or a bigint and checks the range exactly.
 */
export const EXACT_INTEGER = 'x-exact-integer';

interface ExactIntegerOptions {
  format?: string;
  minimum?: number;
  maximum?: number;
}

const FORMAT_RANGES: Record<string, [bigint, bigint]> = {
  int64: [INT64_MIN, INT64_MAX],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
};

/** ajv's code writers, from the module ajvModules loaded: this module never loads ajv itself. */
type CodeWriters = Pick<Ajv2020Module, '_' | 'str'>;

/**
 * The keyword as code ajv writes into the validator (a `code` keyword, not a function it calls), so that
 * the compiled validators can be kept as standalone code (contract.ts): one failure a value, the first of
 * integer, range, minimum and maximum, each with its own message. A number is integral when
 * Number.isInteger holds; its value is compared exactly, as a bigint.
 */
export function exactIntegerKeyword({ _, str }: CodeWriters): KeywordDefinition {
  return {
    keyword: EXACT_INTEGER,
    schemaType: 'object',
    error: { message: ({ params }) => params.message as Code },
    code(cxt: KeywordCxt) {
      const { gen, data } = cxt;
      const { format, minimum, maximum } = cxt.schema as ExactIntegerOptions;
      const exact = _`(typeof ${data} == "bigint" ? ${data} : BigInt(${data}))`;
      const fail = (message: Code) => cxt.error(false, { message });
      gen.if(_`!(typeof ${data} == "bigint" || (typeof ${data} == "number" && Number.isInteger(${data})))`);
      fail(str`must be integer`);
      const range = format ? FORMAT_RANGES[format] : undefined;
      if (range) {
        gen.elseIf(_`${exact} < BigInt(${String(range[0])}) || ${exact} > BigInt(${String(range[1])})`);
        fail(str`must be within the ${format ?? ''} range`);
      }
      if (minimum !== undefined) {
        gen.elseIf(_`${exact} < BigInt(${String(minimum)})`);
        fail(str`must be >= ${minimum}`);
      }
      if (maximum !== undefined) {
        gen.elseIf(_`${exact} > BigInt(${String(maximum)})`);
        fail(str`must be <= ${maximum}`);
      }
      gen.endIf();
    },
  };
}

/** A deep copy of `schema` with component refs pointed at `$defs` and integer nodes rewritten. */
export function toValidationSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toValidationSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema as SchemaObject)) {
    if (key === '$ref' && typeof value === 'string') out[key] = value.replace('#/components/schemas/', '#/$defs/');
    else if (key.startsWith('x-')) continue;
    else out[key] = toValidationSchema(value);
  }
  if (out.type === 'integer') {
    const { type: _type, format, minimum, maximum, ...rest } = out;
    return { ...rest, [EXACT_INTEGER]: { format, minimum, maximum } };
  }
  return out;
}
