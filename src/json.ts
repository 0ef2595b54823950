import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/**
 * Parses JSON without losing int64 precision: integers that fit a double exactly become numbers,
 * larger ones become bigint, everything else becomes a number. A server that rounds 2^53+1 is caught
 * because the digits are compared, not the floats.
 */
export function parseJson(text: string): unknown {
  // JSON.parse is exact when no number literal has 16 or more digits, and several times faster.
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
  return parse(text, null, parseNumber);
}

const LONG_DIGIT_RUN = /\d{16}/;

function parseNumber(value: string): number | bigint {
  if (isInteger(value) && !isSafeNumber(value)) return BigInt(value);
  return Number(value);
}

/** JSON text with bigint written as exact integers. */
export function stringifyJson(value: unknown): string {
  return stringify(value) ?? 'null';
}

/**
 * Any value as one line of JSON text (int64 as exact digits), cut at `limit` characters, for a message or
 * a finding. Values come from hostile bodies, so it never throws.
 */
export function showValue(value: unknown, limit = 120): string {
  let text: string;
  try {
    text = value === undefined ? 'nothing' : stringifyJson(value);
  } catch {
    text = `a ${typeof value}`;
  }
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** An int64 field's value as bigint, or undefined when it is not an integer. */
export function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return undefined;
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
