/**
 * Text a target wrote, read back as the characters it stands for: the decoding the redactor looks for
 * the key in. One pass, each position read a bounded number of times, whatever the input.
 */

/**
 * The texts as decoded characters, in typed arrays: each character as the text holds it, decoded:
 * itself, percent-encoded (either hex case, double-encoded too, UTF-8 bytes), a JSON or JavaScript escape
 * (\u006b, \u006B, \x6b, any number of backslashes), or an HTML character reference (&#107; &#x6b;).
 * Unit i is `codes[i]`, from `starts[i]` to `ends[i]` in text `pieces[i]`.
 */
export class Units {
  count = 0;
  readonly codes: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly pieces: Int32Array;
  constructor(capacity: number) {
    this.codes = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.pieces = new Int32Array(capacity);
  }
  push(piece: number, start: number, end: number, code: number): void {
    const i = this.count;
    this.codes[i] = code;
    this.starts[i] = start;
    this.ends[i] = end;
    this.pieces[i] = piece;
    this.count = i + 1;
  }
}

export const BACKSLASH = 0x5c;

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** The value of `count` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, count: number): number {
  if (at + count > text.length) return -1;
  let value = 0;
  for (let i = at; i < at + count; i += 1) {
    const digit = hexValue(text.charCodeAt(i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** A percent-encoded byte at `at` (`%4b`, or `%254b` encoded twice): its value and end, or undefined. */
function percentByte(text: string, at: number): { value: number; end: number } | undefined {
  if (text.charCodeAt(at) !== 0x25) return undefined;
  const first = hexAt(text, at + 1, 2);
  if (first < 0) return undefined;
  if (first === 0x25) {
    const twice = hexAt(text, at + 3, 2);
    if (twice >= 0) return { value: twice, end: at + 5 };
  }
  return { value: first, end: at + 3 };
}

/** A percent-encoded UTF-8 character at `at`: its code point and end, or undefined. */
function percentChar(text: string, at: number): { code: number; end: number } | undefined {
  const lead = percentByte(text, at);
  if (!lead) return undefined;
  if (lead.value < 0x80) return { code: lead.value, end: lead.end };
  const more = lead.value >= 0xf0 ? 3 : lead.value >= 0xe0 ? 2 : lead.value >= 0xc0 ? 1 : -1;
  if (more < 0) return undefined;
  let code = lead.value & (0x3f >> more);
  let end = lead.end;
  for (let k = 0; k < more; k += 1) {
    const next = percentByte(text, end);
    if (!next || (next.value & 0xc0) !== 0x80) return undefined;
    code = (code << 6) | (next.value & 0x3f);
    end = next.end;
  }
  return { code, end };
}

/** Digits of a numeric reference from `at` (a bounded count, leading zeros skipped): value and end. */
function digitsAt(text: string, at: number, radix: 10 | 16): { value: number; end: number } {
  let value = 0;
  let end = at;
  let significant = 0;
  for (; end < text.length; end += 1) {
    const code = text.charCodeAt(end);
    const digit = radix === 16 ? hexValue(code) : code >= 0x30 && code <= 0x39 ? code - 0x30 : -1;
    if (digit < 0) break;
    if (value > 0 || digit > 0) significant += 1;
    // Past 7 significant digits it is no code point; keep reading so the whole reference is one unit.
    if (significant <= 7) value = value * radix + digit;
  }
  return { value: significant > 7 ? 0x110000 : value, end };
}

/** An HTML character reference at `at` (`&#107;`, `&#x6b;`, the `;` optional): code point and end. */
function htmlReference(text: string, at: number): { code: number; end: number } | undefined {
  if (text.charCodeAt(at + 1) !== 0x23) return undefined;
  const hex = (text.charCodeAt(at + 2) | 0x20) === 0x78;
  const from = at + (hex ? 3 : 2);
  const { value, end } = digitsAt(text, from, hex ? 16 : 10);
  if (end === from || value > 0x10ffff) return undefined;
  return { code: value, end: text.charCodeAt(end) === 0x3b ? end + 1 : end };
}

/** What a run of backslashes ending before `at` escapes: \uXXXX, \u{…}, \xXX, \n, \r, \t. */
function backslashEscape(text: string, at: number): { code: number; end: number } | undefined {
  const kind = text.charCodeAt(at);
  if (kind === 0x75 /* u */) {
    if (text.charCodeAt(at + 1) === 0x7b /* { */) {
      const { value, end } = digitsAt(text, at + 2, 16);
      return end > at + 2 && text.charCodeAt(end) === 0x7d && value <= 0x10ffff ? { code: value, end: end + 1 } : undefined;
    }
    const code = hexAt(text, at + 1, 4);
    return code >= 0 ? { code, end: at + 5 } : undefined;
  }
  if (kind === 0x78 /* x */) {
    const code = hexAt(text, at + 1, 2);
    return code >= 0 ? { code, end: at + 3 } : undefined;
  }
  const named = kind === 0x6e ? 0x0a : kind === 0x72 ? 0x0d : kind === 0x74 ? 0x09 : -1;
  return named >= 0 ? { code: named, end: at + 1 } : undefined;
}

/** Whether decode reads the run of backslashes before `at` as an escape (\u0041, \x41, \n), not as backslashes. */
export function escapeAfterBackslashes(text: string, at: number): boolean {
  return backslashEscape(text, at) !== undefined;
}

/**
 * Whether decode reads a percent-encoded character or an HTML character reference at `at`: a `%` or `&`
 * that starts neither (`100%`, `%zz`, `Tom & Jerry`) decodes to itself.
 */
export function referenceAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code === 0x25) return percentChar(text, at) !== undefined;
  return code === 0x26 && htmlReference(text, at) !== undefined;
}

/**
 * The text as a list of decoded characters, in one pass: every position is read a bounded number of
 * times (a run of backslashes is measured once, then either ends in an escape or is kept as it is).
 */
export function decode(text: string, piece: number, units: Units): void {
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === BACKSLASH) {
      let run = at;
      while (run < text.length && text.charCodeAt(run) === BACKSLASH) run += 1;
      const escape = backslashEscape(text, run);
      if (escape) {
        units.push(piece, at, escape.end, escape.code);
        at = escape.end;
      } else {
        for (; at < run; at += 1) units.push(piece, at, at + 1, BACKSLASH);
      }
      continue;
    }
    const decoded = code === 0x25 ? percentChar(text, at) : code === 0x26 ? htmlReference(text, at) : undefined;
    if (decoded) {
      units.push(piece, at, decoded.end, decoded.code);
      at = decoded.end;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) {
      const point = text.codePointAt(at)!;
      if (point > 0xffff) {
        units.push(piece, at, at + 2, point);
        at += 2;
        continue;
      }
    }
    units.push(piece, at, at + 1, code);
    at += 1;
  }
}

/** Line breaks and spacing: a key written across lines, or indented, is still one key (keptUnits, key-marks.ts). */
export function isSpacing(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

const isSurrogate = (code: number) => code >= 0xd800 && code <= 0xdfff;

/**
 * The text as the full scan reads it, as one string: each unit decode() gives, in order, with every run of
 * spacing that holds a line break left out, as keptUnits leaves it out. The redactor's first filters read
 * it where the text as written has an escape or a line break (a generated name with a backslash before r,
 * a list of such names), so such a text no longer takes the full scan for that alone. A string stands for
 * the units only where each unit is one character or a whole surrogate pair: undefined, so the full scan
 * reads the text, for a percent-encoded character (the full scan's own test forces it with one), an escape
 * that gives half a surrogate pair, and a dropped line break between a high surrogate and what follows
 * (the two could join into one character the units keep apart). One pass; plain runs are copied whole.
 */
export function decodedText(text: string): string | undefined {
  let out = '';
  // Spacing units read since the last other unit, and whether they hold a line break: kept or dropped whole.
  let spacing = '';
  let lineBreak = false;
  let plainFrom = 0;
  const unit = (decoded: string, code: number): boolean => {
    if (isSpacing(code)) {
      spacing += decoded;
      lineBreak ||= code === 0x0a || code === 0x0d;
      return true;
    }
    if (spacing !== '') {
      if (!lineBreak) out += spacing;
      else if (out !== '' && isSurrogate(out.charCodeAt(out.length - 1))) return false;
      spacing = '';
      lineBreak = false;
    }
    out += decoded;
    return true;
  };
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code !== BACKSLASH && code !== 0x25 && code !== 0x26 && !isSpacing(code)) {
      at += 1;
      continue;
    }
    // The plain run before `at` is one unit per character: its first decides what happens to pending spacing.
    if (plainFrom < at && !unit(text.slice(plainFrom, at), text.charCodeAt(plainFrom))) return undefined;
    if (code === 0x25 && percentChar(text, at)) return undefined;
    // What starts at `at`: an escape (one unit), a run of backslashes that is none (a unit each), or one character.
    let escape: { code: number; end: number } | undefined;
    let end = at + 1;
    if (code === BACKSLASH) {
      let run = at;
      while (run < text.length && text.charCodeAt(run) === BACKSLASH) run += 1;
      escape = backslashEscape(text, run);
      end = run;
    } else if (code === 0x26) {
      escape = htmlReference(text, at);
    }
    if (escape && isSurrogate(escape.code)) return undefined;
    if (escape) end = escape.end;
    if (!unit(escape ? String.fromCodePoint(escape.code) : text.slice(at, end), escape ? escape.code : code)) return undefined;
    at = end;
    plainFrom = end;
  }
  if (plainFrom < text.length && !unit(text.slice(plainFrom), text.charCodeAt(plainFrom))) return undefined;
  return lineBreak ? out : out + spacing;
}
