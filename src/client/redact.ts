/** Replaces the key in any string bound for a report, log line, error message or curl line. */
export type Redact = (text: string) => string;

export const REDACTED = '***';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every way one character of the key can be written in text a target controls: itself, percent-encoded
 * (either hex case, also double-encoded), as a JSON or JavaScript escape (\u006b, \x6b), and as an HTML
 * character reference (&#107; &#x6b;). Any mix of these across the key still matches, so a partly
 * escaped copy is caught as well as a wholly escaped one.
 */
function characterForms(char: string, plain: boolean): string {
  if (plain) return escapeRegExp(char);
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16);
  const bytes = [...Buffer.from(char, 'utf8')].map((b) => b.toString(16).padStart(2, '0'));
  const forms = [
    escapeRegExp(char),
    bytes.map((b) => `%(?:25)?${b}`).join(''),
    `\\\\+u0*${hex}`,
    `&#x0*${hex};?`,
    `&#0*${code};?`,
    ...(code < 0x100 ? [`\\\\+x${hex.padStart(2, '0')}`] : []),
  ];
  return `(?:${forms.join('|')})`;
}

/** The text in any mix of the character forms above. */
function encodedForms(text: string, plain: boolean): string {
  return [...text].map((char) => characterForms(char, plain)).join('');
}

// eslint-disable-next-line no-control-regex -- ASCII is every code point below 0x80, controls included
const ASCII = /^[\x00-\x7f]*$/;

/** Every character form but the character itself holds one of these. */
const ENCODING_MARKS = /[%\\&]/;

const BASE64_CHAR = '[A-Za-z0-9+/_-]';

/**
 * The base64 (and base64url) characters that `text` alone decides wherever it sits in the encoded
 * stream: it may start at any of three byte offsets within a quantum (after "Bearer ", after "user:",
 * inside a JSON blob), and each gives other characters.
 */
function base64Cores(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const cores: string[] = [];
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // Characters that mix bits of the bytes before `text` are left out, and so is the partial last quantum.
    const core = encoded.slice([0, 2, 3][shift], Math.floor((shift + bytes.length) / 3) * 4);
    cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...new Set(cores)].filter((core) => core.length >= 8);
}

/**
 * The last guard before anything is recorded, printed or written: the key, judged by content, in every
 * form a target can echo it back in. That is any letter case (tests send it upper- and lower-cased on
 * purpose), percent-encoded, JSON-, JavaScript- or HTML-escaped (wholly or partly), in base64 or
 * base64url at any alignment (Basic, a token, an encoded blob), and anything that starts with a large
 * part of it (the prefixes and same-shape keys the auth tests send) becomes `***`. Built once per client.
 */
export function createRedactor(secret: string): Redact {
  if (secret.length === 0) return (text) => text;
  // The key, and the plain transforms of it a target can echo without knowing the suite: reversed,
  // rot13, hex. Each is redacted in every form above (escaped, percent-encoded, base64…).
  const variants = [...new Set([secret, [...secret].reverse().join(''), rot13(secret), Buffer.from(secret).toString('hex')])];
  const pattern = new RegExp(variants.flatMap((variant) => formsOf(variant, false)).join('|'), 'gi');
  // The same pattern with each character as itself only: it matches what `pattern` matches in a text
  // with no encoding mark, and scans a plain JSON body many times faster.
  const plainPattern = new RegExp(variants.flatMap((variant) => formsOf(variant, true)).join('|'), 'gi');
  const prefix = keyPrefix(secret);
  const shortest = Math.min(prefix.length, 8);
  const tainted = taintCheck(secret);
  return (text) => {
    if (text.length < shortest) return text;
    const clean = text.replace(ENCODING_MARKS.test(text) ? pattern : plainPattern, REDACTED);
    // What no pattern caught but reads as the key once normalised (fullwidth letters, zero-width or
    // spacing characters between its characters, UTF-16 escapes): the whole text is withheld.
    return tainted(clean) ? `${REDACTED} (withheld: the text held the API key in a disguised form)` : clean;
  };
}

/** The first half of the key, at least 8 characters: a copy that starts with it is the key. */
function keyPrefix(secret: string): string {
  return secret.slice(0, Math.min(secret.length, Math.max(8, Math.floor(secret.length / 2))));
}

/** The patterns of one key-like text: its exact base64, every character form, its prefix and suffix run on, base64 at any alignment. */
function formsOf(secret: string, plain: boolean): string[] {
  const prefix = keyPrefix(secret);
  // The last half too: a key split across lines leaves its tail on the next one.
  const suffix = secret.slice(secret.length - prefix.length);
  const base64 = (text: string) => Buffer.from(text).toString('base64').replace(/=+$/, '');
  // The prefix, and as many key-like characters after it as the rest of the key could hold.
  const rest = secret.length - prefix.length + 2;
  const base64Rest = Math.ceil(((secret.length + 2) * 4) / 3);
  // The exact forms come first, so a key repeated back to back is matched key by key.
  return [
    ...[base64(secret), base64(`${secret}:`)].map(escapeRegExp),
    encodedForms(secret, plain),
    `${encodedForms(prefix, plain)}(?:[\\w-]|%[0-9a-f]{2}|\\\\+u[0-9a-f]{4}){0,${rest}}`,
    encodedForms(suffix, plain),
    ...base64Cores(prefix).map((core) => `${escapeRegExp(core)}${BASE64_CHAR}{0,${base64Rest}}=*`),
  ];
}

function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/**
 * Whether text still reads as the key (or its prefix, forwards or backwards) once normalised: NFKC
 * (fullwidth and other compatibility letters), without format characters (zero-width, bidi), spacing,
 * NUL or its escapes (UTF-16 written byte by byte), in any letter case.
 */
function taintCheck(secret: string): (text: string) => boolean {
  const prefix = keyPrefix(secret).toLowerCase();
  const reversed = [...prefix].reverse().join('');
  return (text) => {
    // ASCII is its own NFKC form, and its only spacing and format characters are controls and space.
    const ascii = ASCII.test(text);
    const normal = (ascii ? text : text.normalize('NFKC'))
      .replace(/\\+u0000|\\+x00|%00/gi, '')
      // eslint-disable-next-line no-control-regex -- the controls are what is removed
      .replace(ascii ? /[\x00-\x20\x7f]/g : /[\p{Cf}\p{Cc}\p{Z}\s]/gu, '')
      .toLowerCase();
    return normal.includes(prefix) || normal.includes(reversed);
  };
}

/**
 * A header map, redacted by content: names as well as values, since a target can name a header after
 * the key. Names that become alike after redaction are joined, as a repeated header is.
 */
export function redactHeaders(headers: Readonly<Record<string, string>>, redact: Redact): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const shown = redact(name);
    const clean = redact(value);
    out[shown] = Object.hasOwn(out, shown) ? `${out[shown]}, ${clean}` : clean;
  }
  return out;
}

export const RECORDED_BODY_CHARS = 4096;

/** Longer than any key; a key split by the scan window can only sit in this many trailing chars. */
const KEY_SPAN = 1024;

/**
 * Redacts, then cuts to RECORDED_BODY_CHARS. Redacting first matters: a cut could split the key and leave
 * a prefix no pattern matches. Only a window somewhat longer than the cut is scanned, so a 2 MiB body
 * costs little; the window grows when redaction shrank it so much that its split tail could reach the cut.
 */
export function recordedBody(text: string, redact: Redact, max = RECORDED_BODY_CHARS): { body: string; truncated: boolean } {
  let size = max + 2 * KEY_SPAN;
  let clean = redact(text.slice(0, size));
  while (size < text.length && clean.length < max + KEY_SPAN) {
    size *= 4;
    clean = redact(text.slice(0, size));
  }
  if (size >= text.length && clean.length <= max) return { body: clean, truncated: false };
  let end = max;
  // Do not leave half a surrogate pair at the end.
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { body: clean.slice(0, end), truncated: true };
}
