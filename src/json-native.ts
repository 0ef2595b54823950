/**
 * When V8's JSON.parse gives exactly the value parseJson (json.ts) would, it is used instead: it is
 * several times faster than the strict reader, and nearly every body of a run qualifies. The scan below
 * finds what could make the two differ and leaves those texts to the strict reader:
 *
 * - a number with a fraction or an exponent (`5.0`, `1e-400`, `1.0000000000000001`): the strict reader
 *   reads them exactly (an integer, or NaN for a fraction a double rounds to an integer);
 * - a run of 16 or more digits: an integer of 15 digits or fewer is below 10^15 < 2^53, so a double
 *   holds it exactly; a longer one may need a bigint;
 * - nesting as deep as the strict reader's bound (MAX_JSON_DEPTH), which it refuses;
 * - a duplicated key, which JSON.parse keeps quietly: the value's keys are counted against the colons
 *   outside strings (one per key in valid JSON), and fewer keys means a duplicate;
 * - anything JSON.parse refuses: the strict reader says why, with its own words and byte offset.
 *
 * Strings, escapes, `__proto__` keys (a data property either way), whitespace, true, false and null read
 * the same in both.
 */
export function nativeJson(text: string, maxDepth: number): { value: unknown } | undefined {
  const length = text.length;
  let colons = 0;
  let depth = 0;
  let digits = 0;
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // Past the string: only its closing quote matters here (JSON.parse judges the rest).
      for (i += 1; ; i += 1) {
        if (i >= length) return undefined;
        const inside = text.charCodeAt(i);
        if (inside === QUOTE) break;
        if (inside === BACKSLASH) i += 1;
      }
      digits = 0;
      continue;
    }
    if (code >= DIGIT_0 && code <= DIGIT_9) {
      digits += 1;
      if (digits >= LONGEST_EXACT + 1) return undefined;
      continue;
    }
    if (code === DOT || code === UPPER_E || (code === LOWER_E && digits > 0)) return undefined;
    digits = 0;
    if (code === COLON) colons += 1;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth >= maxDepth) return undefined;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth -= 1;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return keyCount(value) === colons ? { value } : undefined;
}

/** Digits an integer literal may have and still be exact as a double (10^15 < 2^53). */
const LONGEST_EXACT = 15;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** The keys of every object in a parsed value (its nesting is bounded by the scan). */
function keyCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += keyCount(item);
    return count;
  }
  for (const item of Object.values(value)) count += 1 + keyCount(item);
  return count;
}
