import type { KeywordDefinition } from 'ajv';
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

type ReportingValidate = { errors?: Array<{ keyword: string; message: string; params: object }> };

/** Ajv reads a custom keyword's errors from its validate function. A module function, not a closure
 * made on every call: validation runs on every request the reference serves and every response checked. */
function fail(validate: ReportingValidate, message: string, params: object): false {
  validate.errors = [{ keyword: EXACT_INTEGER, message, params }];
  return false;
}

export const exactIntegerKeyword: KeywordDefinition = {
  keyword: EXACT_INTEGER,
  schemaType: 'object',
  errors: true,
  validate: function validate(options: ExactIntegerOptions, data: unknown) {
    const self = validate as typeof validate & ReportingValidate;
    let value: bigint;
    if (typeof data === 'bigint') value = data;
    else if (typeof data === 'number' && Number.isInteger(data)) value = BigInt(data);
    else return fail(self, 'must be integer', { type: 'integer' });
    const range = options.format ? FORMAT_RANGES[options.format] : undefined;
    if (range && (value < range[0] || value > range[1])) {
      return fail(self, `must be within the ${options.format} range`, { format: options.format });
    }
    if (options.minimum !== undefined && value < BigInt(options.minimum)) {
      return fail(self, `must be >= ${options.minimum}`, { comparison: '>=', limit: options.minimum });
    }
    if (options.maximum !== undefined && value > BigInt(options.maximum)) {
      return fail(self, `must be <= ${options.maximum}`, { comparison: '<=', limit: options.maximum });
    }
    return true;
  },
};

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
