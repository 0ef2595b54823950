/**
 * createPet's fast reading of the common body, a flat JSON object (`{"name":"Rex","categoryId":1}`):
 * V8's JSON.parse where it provably gives the value the strict reader (parseJson, text/json.ts) gives,
 * undefined for any other text, which the caller then gives to parseJson. It is json-native.ts's
 * argument narrowed to one object without nesting, which spares the general scan's bookkeeping on
 * every request:
 *
 * - one `{` and no `[` outside strings: a single flat object, far below any depth bound;
 * - no `.`, `E`, or `e` right after a digit: no fraction or exponent, which the strict reader reads exactly;
 * - no run of more than 15 digits: every integer is exact as a double (10^15 < 2^53);
 * - as many own keys as colons outside strings: no duplicated key, which JSON.parse keeps quietly;
 * - anything JSON.parse refuses goes to the strict reader, which says why in its own words.
 */
export function readFlatObject(text: string): Record<string, unknown> | undefined {
  const length = text.length;
  let braces = 0;
  let colons = 0;
  let digits = 0;
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= DIGIT_0 && code <= DIGIT_9) {
      digits += 1;
      if (digits > LONGEST_EXACT) return undefined;
      continue;
    }
    if (code === QUOTE) {
      for (i += 1; ; i += 1) {
        if (i >= length) return undefined;
        const inside = text.charCodeAt(i);
        if (inside === QUOTE) break;
        if (inside === BACKSLASH) i += 1;
      }
    } else if (code === COLON) colons += 1;
    else if (code === OPEN_BRACE) braces += 1;
    else if (code === OPEN_BRACKET || code === DOT || code === UPPER_E || (code === LOWER_E && digits > 0)) return undefined;
    digits = 0;
  }
  if (braces !== 1) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.keys(value).length === colons ? (value as Record<string, unknown>) : undefined;
}

/** Digits an integer literal may have and still be exact as a double. */
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
const OPEN_BRACKET = 0x5b;
