import { isUtf8 } from 'node:buffer';
import { stringify } from 'lossless-json';
import { nativeJson } from './json-native.ts';
import { decodeUtf8 } from './utf8.ts';

/**
 * Nesting deeper than this is refused (RFC 8259 §9 lets a parser set the limit). An Animal Store body
 * nests three levels; the bound keeps a hostile body from costing the suite its stack.
 */
export const MAX_JSON_DEPTH = 128;

/** The one reading of a response body: the value, or why the bytes are not JSON (with a byte offset). */
export type JsonReading = { ok: true; value: unknown } | { ok: false; reason: string };

/** A body that is not JSON; `reason` says why and where (a byte offset into the body). */
export class JsonSyntaxError extends SyntaxError {
  override readonly name = 'JsonSyntaxError';
}

/**
 * Reads a body as JSON text the way RFC 8259 defines it, judging the bytes and never repairing them:
 * bytes that are not UTF-8, a duplicated object key, nesting past MAX_JSON_DEPTH and any syntax error
 * make it not JSON. Safe integers (within ±(2^53-1)) become numbers, larger ones exact bigint, so a
 * server that rounds 2^53+1 is caught; every other number becomes a number.
 */
export function readJsonBytes(bytes: Uint8Array): JsonReading {
  // Well-formed UTF-8 (nearly every body) decodes without the fatal decoder's copy and exception path.
  if (isUtf8(bytes)) return readJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return { ok: false, reason: `not UTF-8: invalid byte 0x${decoded.byte.toString(16).padStart(2, '0')} at byte ${decoded.offset}` };
  return readJson(decoded.text);
}

/** readJsonBytes for text already decoded (strictly). */
export function readJson(text: string): JsonReading {
  try {
    return { ok: true, value: parseJson(text) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/** The value of JSON text, or a JsonSyntaxError saying why it is not JSON (see readJsonBytes). */
export function parseJson(text: string): unknown {
  // JSON.parse where it provably reads the same value (json-native.ts); the strict reader otherwise.
  const native = nativeJson(text, MAX_JSON_DEPTH);
  return native ? native.value : parseJsonStrictly(text);
}

/** parseJson without the fast path: the strict reader alone (its tests compare the two). */
export function parseJsonStrictly(text: string): unknown {
  const parser = new Parser(text);
  parser.skipSpace();
  const value = parser.value(0);
  parser.skipSpace();
  if (parser.at < text.length) parser.fail('text after the JSON value');
  return value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** A recursive-descent parser bounded by MAX_JSON_DEPTH; positions in messages are byte offsets. */
class Parser {
  at = 0;
  constructor(private readonly text: string) {}

  fail(what: string, at = this.at): never {
    throw new JsonSyntaxError(`not JSON: ${what} at byte ${Buffer.byteLength(this.text.slice(0, at))}`);
  }

  skipSpace(): void {
    const { text } = this;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.at += 1;
    }
  }

  value(depth: number): unknown {
    const c = this.text[this.at];
    if (c === '{' || c === '[') {
      if (depth >= MAX_JSON_DEPTH) this.fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
      return c === '{' ? this.object(depth + 1) : this.array(depth + 1);
    }
    if (c === '"') return this.string();
    if (c === undefined) this.fail('unexpected end of the body');
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    return this.fail(`unexpected ${describeChar(c)}`);
  }

  object(depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at += 1;
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at += 1;
      return out;
    }
    for (;;) {
      const keyAt = this.at;
      if (this.text[this.at] !== '"') this.fail('an object key that is not a string');
      const key = this.string();
      if (Object.hasOwn(out, key)) this.fail(`duplicate key ${JSON.stringify(key.slice(0, 40))}`, keyAt);
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail('a missing colon');
      this.at += 1;
      this.skipSpace();
      // defineProperty: a key named __proto__ is data, as with JSON.parse, never the object's prototype.
      Object.defineProperty(out, key, { value: this.value(depth), enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const next = this.text[this.at];
      this.at += 1;
      if (next === '}') return out;
      if (next !== ',') this.fail(next === undefined ? 'unexpected end of the body' : `unexpected ${describeChar(next)} in an object`, this.at - 1);
      this.skipSpace();
    }
  }

  array(depth: number): unknown[] {
    const out: unknown[] = [];
    this.at += 1;
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at += 1;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.skipSpace();
      const next = this.text[this.at];
      this.at += 1;
      if (next === ']') return out;
      if (next !== ',') this.fail(next === undefined ? 'unexpected end of the body' : `unexpected ${describeChar(next)} in an array`, this.at - 1);
      this.skipSpace();
    }
  }

  string(): string {
    const { text } = this;
    const start = this.at + 1;
    let out = '';
    let from = start;
    for (let i = start; ; i += 1) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) this.fail('a string that never ends', this.at);
      if (c === QUOTE) {
        this.at = i + 1;
        return out + text.slice(from, i);
      }
      if (c < 0x20) this.fail('a control character inside a string', i);
      if (c !== BACKSLASH) continue;
      out += text.slice(from, i);
      const escape = text[i + 1] ?? '';
      if (escape === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!HEX4.test(hex)) this.fail('a \\u escape without four hex digits', i);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 5;
      } else {
        const plain = ESCAPES[escape];
        if (plain === undefined) this.fail('an invalid escape in a string', i);
        out += plain;
        i += 1;
      }
      from = i + 1;
    }
  }

  number(): number | bigint {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) return this.fail('a malformed number');
    this.at += match[0].length;
    const literal = match[0];
    const integer = match[1] === undefined && match[2] === undefined;
    // Integers beyond ±(2^53-1) are bigint, always: one type for the whole range a double cannot hold
    // (a double may hold one exactly, 2^60, yet print it rounded, so a lookup by its text would miss).
    if (integer) {
      const value = Number(literal);
      return Number.isSafeInteger(value) ? value : BigInt(literal);
    }
    // A literal with a fraction or an exponent is read exactly too: an integer written 9223372036854775806E+0
    // or 5.0 is that integer; a fraction a double would round to an integer (1e-400, 2^63 + 0.4) is NaN,
    // so it still fails every integer check instead of passing as its neighbour.
    const exact = exactInteger(literal);
    if (exact !== undefined) {
      if (exact >= -MAX_SAFE && exact <= MAX_SAFE) return Number(exact);
      // Far past int64 (past 10^40, where exactInteger stops counting) the double says it well enough.
      return exact > -FAR && exact < FAR ? exact : Number(literal);
    }
    const value = Number(literal);
    return Number.isInteger(value) ? Number.NaN : value;
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const FAR = 10n ** 40n;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** A scale past this leaves int64 far behind: the exact value no longer matters, only that it is out of range. */
const MAX_SCALE = 40;

/** The exact value of a JSON number literal that is an integer (`12`, `1.5e3`, `120.0`), or undefined for a fraction. */
export function exactInteger(literal: string): bigint | undefined {
  const [, sign, whole, fraction = '', exponent] = DECIMAL.exec(literal) ?? [];
  if (whole === undefined) return undefined;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (!digits) return 0n;
  const written = Number(exponent ?? 0) - fraction.length;
  // Trailing zeros of a fraction are no fraction: 1000.0 is 10000·10^-1, that is 1000·10^0.
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  const moved = Math.min(trailing, Math.max(0, -written));
  const scale = written + moved;
  if (scale < 0) return undefined;
  const magnitude = BigInt(digits.slice(0, digits.length - moved)) * 10n ** BigInt(Math.min(scale, MAX_SCALE));
  return sign ? -magnitude : magnitude;
}

function describeChar(c: string): string {
  const code = c.charCodeAt(0);
  return code >= 0x20 && code < 0x7f ? `'${c}'` : `character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
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
