import { parse } from 'lossless-json';

/**
 * Exact reading of JSON number literals, for the rare body whose integer is written with an exponent
 * or a fraction (`1.5e18`): parseJson turns those into doubles, which are not exact beyond 2^53.
 */

// No anchors: lossless-json hands over one whole JSON number literal, which this always matches.
const DECIMAL = /(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?/;
const MAX_SCALE = 40;

/** The exact value of an integer literal (`12`, `1.5e3`, `120.0`), or undefined for a fraction. */
export function exactInteger(literal: string): bigint | undefined {
  const [, sign, whole, fraction = '', exponent] = DECIMAL.exec(literal) ?? [];
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (!digits) return 0n;
  const written = Number(exponent ?? 0) - fraction.length;
  // Trailing zeros of a fraction are no fraction: 1000.0 is 10000·10^-1, that is 1000·10^0.
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  const moved = Math.min(trailing, Math.max(0, -written));
  const scale = written + moved;
  if (scale < 0) return undefined;
  // A scale past 40 leaves int64 far behind: the exact value no longer matters, only that it is out.
  const magnitude = BigInt(digits.slice(0, digits.length - moved)) * 10n ** BigInt(Math.min(scale, MAX_SCALE));
  return sign ? -magnitude : magnitude;
}

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
