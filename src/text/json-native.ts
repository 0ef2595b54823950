/**
 * When V8's JSON.parse gives exactly the value parseJson (json.ts) would, it is used instead: it is
 * several times faster than the strict reader, and nearly every body of a run qualifies. The scan below
 * finds what could make the two differ and leaves those texts to the strict reader:
 *
 * - a number with a fraction or an exponent (`5.0`, `1e-400`, `1.0000000000000001`): the strict reader
 *   reads them exactly (an integer, or NaN for a fraction a double rounds to an integer);
 * - an integer of 16 or more digits, which a double may not hold (15 digits are below 10^15 < 2^53):
 *   JSON.parse reads it as a string put in its place (`"\u0000" + its index`, where the text holds no
 *   `\u0000` escape of its own) and a reviver gives it back as the strict reader's number or bigint;
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
  /** Where each integer of more than LONGEST_EXACT digits starts and ends (its sign included). */
  const long: number[] = [];
  const endRun = (end: number) => {
    if (digits <= LONGEST_EXACT) return true;
    const start = end - digits;
    // A leading zero is no JSON number (the strict reader says so); a string in its place would read.
    if (text.charCodeAt(start) === DIGIT_0) return false;
    long.push(text.charCodeAt(start - 1) === MINUS ? start - 1 : start, end);
    return true;
  };
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= DIGIT_0 && code <= DIGIT_9) {
      digits += 1;
      continue;
    }
    if (!endRun(i)) return undefined;
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
    if (code === DOT || code === UPPER_E || (code === LOWER_E && digits > 0)) return undefined;
    digits = 0;
    if (code === COLON) colons += 1;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth >= maxDepth) return undefined;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth -= 1;
  }
  if (!endRun(length)) return undefined;
  if (long.length > 0 && text.includes(NUL_ESCAPE)) return undefined;
  let read: { value: unknown; keys: number };
  try {
    read = long.length === 0 ? plainParse(text) : parseWithLongIntegers(text, long);
  } catch {
    return undefined;
  }
  return read.keys === colons ? { value: read.value } : undefined;
}

/** JSON.parse of `text`, and the keys of its objects. */
function plainParse(text: string): { value: unknown; keys: number } {
  const value: unknown = JSON.parse(text);
  return { value, keys: keyCount(value) };
}

/** The escape the stand-ins of long integers are written with; a text that holds one is left to the strict reader. */
const NUL_ESCAPE = '\\u0000';

/**
 * JSON.parse of `text` with each long integer (`bounds`: start and end, in pairs) replaced by a string
 * naming it, then each of those strings replaced by the integer's value as the strict reader reads it: a
 * safe integer as a number (16 digits may still be one), any other as an exact bigint. The keys of its
 * objects are counted on the same walk.
 */
function parseWithLongIntegers(text: string, bounds: readonly number[]): { value: unknown; keys: number } {
  let written = '';
  let from = 0;
  const literals: string[] = [];
  for (let k = 0; k < bounds.length; k += 2) {
    written += `${text.slice(from, bounds[k])}"${NUL_ESCAPE}${literals.length}"`;
    literals.push(text.slice(bounds[k], bounds[k + 1]));
    from = bounds[k + 1]!;
  }
  written += text.slice(from);
  const walk = { keys: 0 };
  const value = putBack(JSON.parse(written), literals, walk);
  return { value, keys: walk.keys };
}

/** `value` with each stand-in (a string that starts with NUL) replaced by its integer, in place; its objects' keys added to `walk.keys`. */
function putBack(value: unknown, literals: readonly string[], walk: { keys: number }): unknown {
  if (typeof value === 'string') {
    if (value.charCodeAt(0) !== 0) return value;
    const literal = literals[Number(value.slice(1))]!;
    const number = Number(literal);
    return Number.isSafeInteger(number) ? number : BigInt(literal);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) value[i] = putBack(value[i], literals, walk);
    return value;
  }
  // An own data property is set as data, `__proto__` included (it shadows the prototype's accessor).
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  walk.keys += keys.length;
  for (const key of keys) object[key] = putBack(object[key], literals, walk);
  return value;
}

/** Digits an integer literal may have and still be exact as a double (10^15 < 2^53). */
const LONGEST_EXACT = 15;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const DOT = 0x2e;
const MINUS = 0x2d;
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
  // for…in rather than Object.values: no array of values a body. An enumerable property inherited from
  // a changed prototype would be counted too: more keys than colons, and the strict reader decides.
  for (const key in value) count += 1 + keyCount((value as Record<string, unknown>)[key]);
  return count;
}
