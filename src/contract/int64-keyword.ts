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
 * Number.isInteger holds; its value is made a bigint once and compared exactly, with bounds made once per
 * validator (values in its scope), not on every call: the reference validates every createPet with it,
 * and the suite every Pet of every list.
 */
export function exactIntegerKeyword({ _, str }: CodeWriters): KeywordDefinition {
  return {
    keyword: EXACT_INTEGER,
    schemaType: 'object',
    error: { message: ({ params }) => params.message as Code },
    code(cxt: KeywordCxt) {
      const { gen, data } = cxt;
      const { format, minimum, maximum } = cxt.schema as ExactIntegerOptions;
      const bound = (value: bigint | number) => {
        const exact = BigInt(value);
        return gen.scopeValue('keyword', { key: `bigint:${exact}`, ref: exact, code: _`BigInt(${String(exact)})` });
      };
      const fail = (message: Code) => cxt.error(false, { message });
      gen.if(_`!(typeof ${data} == "bigint" || (typeof ${data} == "number" && Number.isInteger(${data})))`);
      fail(str`must be integer`);
      const range = format ? FORMAT_RANGES[format] : undefined;
      if (!range && minimum === undefined && maximum === undefined) return void gen.endIf();
      gen.else();
      const value = gen.const('exact', _`typeof ${data} == "bigint" ? ${data} : BigInt(${data})`);
      const checks: Array<[Code, Code]> = [];
      if (range) checks.push([_`${value} < ${bound(range[0])} || ${value} > ${bound(range[1])}`, str`must be within the ${format ?? ''} range`]);
      if (minimum !== undefined) checks.push([_`${value} < ${bound(minimum)}`, str`must be >= ${minimum}`]);
      if (maximum !== undefined) checks.push([_`${value} > ${bound(maximum)}`, str`must be <= ${maximum}`]);
      checks.forEach(([condition, message], i) => {
        if (i === 0) gen.if(condition);
        else gen.elseIf(condition);
        fail(message);
      });
      gen.endIf();
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
