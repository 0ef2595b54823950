import { parse } from 'lossless-json';
import { exactInteger } from '../json.ts';

/**
 * Exact reading of JSON number literals, for the rare body whose integer is written with an exponent
 * or a fraction (`1.5e18`): parseJson turns those into doubles, which are not exact beyond 2^53.
 */

/** JSON.parse with every integer exact: safe ones as numbers, others as bigint; a fraction that a
 * double would round to an integer becomes NaN so that it still fails an integer check. */
export function parseJsonExact(text: string): unknown {
  return parse(text, null, (literal) => {
    const exact = exactInteger(literal);
    if (exact === undefined) {
      const value = Number(literal);
      return Number.isInteger(value) ? Number.NaN : value;
    }
    return exact >= BigInt(Number.MIN_SAFE_INTEGER) && exact <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(exact) : exact;
  });
}
