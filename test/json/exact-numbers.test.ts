import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/text/json.ts';

/**
 * Numbers a target writes with a fraction or an exponent are judged exactly, never through a double:
 * an outside probe made INT-001 pass with 1e-400 for 0 and -9223372036854775808.4 for -2^63, and fail a
 * server that wrote the exact int64 9223372036854775806 as 9223372036854775806E+0.
 */
describe('the one JSON reader: every number exact', () => {
  it.each([
    ['9223372036854775806E+0', 9223372036854775806n],
    ['9223372036854775807.0', 9223372036854775807n],
    ['-9223372036854775808.000', -9223372036854775808n],
    ['92233720368547758.07e2', 9223372036854775807n],
    ['5.0', 5],
    ['5e0', 5],
    ['1e3', 1000],
    ['-0.0', 0],
  ])('an integer written %s is that integer', (literal, value) => {
    expect(parseJson(`{"n":${literal}}`)).toEqual({ n: value });
  });

  it.each(['1e-400', '-9223372036854775808.4', '1.0000000000000001', '9007199254740993.5'])(
    'a fraction a double would round to an integer (%s) is no integer',
    (literal) => {
      const { n } = parseJson(`{"n":${literal}}`) as { n: unknown };
      expect(typeof n === 'bigint' || Number.isInteger(n)).toBe(false);
    },
  );

  it('a fraction a double holds stays that number', () => {
    expect(parseJson('[1.5, -0.25, 2.5e-3]')).toEqual([1.5, -0.25, 0.0025]);
  });

  it('an integer written with an exponent past int64 stays far past it, never rounded into range', () => {
    const { n, m } = parseJson('{"n":9.3e18,"m":2.5e300}') as { n: unknown; m: unknown };
    expect(n).toBe(9300000000000000000n);
    expect(m).toBe(2.5e300);
  });
});
