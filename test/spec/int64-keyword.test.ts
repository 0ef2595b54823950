import { describe, expect, it } from 'vitest';
import { ajvModules } from '../../src/contract/ajv-modules.ts';
import { EXACT_INTEGER, exactIntegerKeyword } from '../../src/contract/int64-keyword.ts';
import { standaloneExports } from '../../src/contract/standalone-module.ts';

/**
 * The exact-integer keyword writes its checks into the validator's code (so the contract's validators
 * can be kept as standalone code). Each of its bounds, as compiled and as standalone code: the spec's
 * component schemas use only its integer and int64 checks, so minimum and maximum are held here.
 */
type Validate = ((value: unknown) => boolean) & { errors?: Array<{ message?: string }> | null };

function validators(): Array<[string, Validate]> {
  const { Ajv2020, codegen, standaloneCode } = ajvModules();
  const ajv = new Ajv2020({ allErrors: true, strict: true, code: { source: true } });
  ajv.addKeyword(exactIntegerKeyword(codegen));
  const schema = { $id: 'https://example.test/int', [EXACT_INTEGER]: { format: 'int32', minimum: 1, maximum: 100 } };
  const compiled = ajv.compile(schema);
  const standalone = standaloneExports(standaloneCode(ajv, compiled)) as Validate;
  return [
    ['compiled', compiled as Validate],
    ['standalone', standalone],
  ];
}

const messageOf = (validate: Validate, value: unknown) => (validate(value) ? 'valid' : (validate.errors ?? []).map((e) => e.message).join('; '));

describe('the exact-integer keyword', () => {
  it.each(validators())('%s: holds a value to integer, then its range, then minimum and maximum, one message each', (_how, validate) => {
    expect(messageOf(validate, 1)).toBe('valid');
    expect(messageOf(validate, 100n)).toBe('valid');
    expect(messageOf(validate, 0)).toBe('must be >= 1');
    expect(messageOf(validate, 101n)).toBe('must be <= 100');
    expect(messageOf(validate, 2.5)).toBe('must be integer');
    expect(messageOf(validate, '7')).toBe('must be integer');
    // Past int32 and past the maximum: the range is named, once.
    expect(messageOf(validate, 2n ** 31n)).toBe('must be within the int32 range');
    expect(messageOf(validate, -(2n ** 31n) - 1n)).toBe('must be within the int32 range');
  });
});
