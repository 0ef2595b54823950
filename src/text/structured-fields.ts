/**
 * A strict parser for Structured Field Values (RFC 9651, formerly RFC 8941): Lists and Dictionaries of
 * Items with parameters. The IETF RateLimit fields and RFC 9745's Deprecation are written in it. A value
 * that does not parse is refused whole (undefined), as the RFC asks of a recipient.
 */

export interface Token {
  readonly token: string;
}
export interface SfDate {
  readonly date: number;
}
export type BareItem = number | string | boolean | Token | SfDate | Uint8Array;

export interface Item {
  readonly value: BareItem;
  readonly params: ReadonlyMap<string, BareItem>;
}
export interface InnerList {
  readonly items: readonly Item[];
  readonly params: ReadonlyMap<string, BareItem>;
}
export type Member = Item | InnerList;

export const isInnerList = (member: Member): member is InnerList => 'items' in member;

class Input {
  at = 0;
  constructor(readonly text: string) {}
  peek(): string {
    return this.text[this.at] ?? '';
  }
  get done(): boolean {
    return this.at >= this.text.length;
  }
  skip(chars: string): void {
    while (!this.done && chars.includes(this.peek())) this.at++;
  }
}

const LCALPHA = /[a-z]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An sf-list, or undefined when the text is not one. */
export function parseList(text: string): Member[] | undefined {
  return whole(text, (input) => {
    const members: Member[] = [];
    eachMember(input, () => members.push(parseMember(input)));
    return members;
  });
}

/** An sf-dictionary, or undefined when the text is not one. A member without a value is `true`. */
export function parseDictionary(text: string): Map<string, Member> | undefined {
  return whole(text, (input) => {
    const members = new Map<string, Member>();
    eachMember(input, () => {
      const key = parseKey(input);
      if (input.peek() !== '=') {
        members.set(key, { value: true, params: parseParams(input) });
        return;
      }
      input.at++;
      members.set(key, parseMember(input));
    });
    return members;
  });
}

/** An sf-item, or undefined when the text is not one. */
export function parseItem(text: string): Item | undefined {
  return whole(text, parseItemAt);
}

class ParseError extends Error {}
function fail(): never {
  throw new ParseError();
}
function expect(input: Input, char: string): void {
  if (input.peek() !== char) fail();
  input.at++;
}

/** Reads members separated by commas (spaces and tabs around them) up to the end; a trailing comma is refused. */
function eachMember(input: Input, read: () => void): void {
  while (!input.done) {
    read();
    input.skip(' \t');
    if (input.done) return;
    expect(input, ',');
    input.skip(' \t');
    if (input.done) fail();
  }
}

function whole<T>(text: string, parse: (input: Input) => T): T | undefined {
  const input = new Input(text);
  input.skip(' ');
  try {
    const value = parse(input);
    input.skip(' ');
    return input.done ? value : undefined;
  } catch (error) {
    if (error instanceof ParseError) return undefined;
    throw error;
  }
}

function parseMember(input: Input): Member {
  if (input.peek() !== '(') return parseItemAt(input);
  input.at++;
  const items: Item[] = [];
  for (;;) {
    input.skip(' ');
    if (input.peek() === ')') {
      input.at++;
      return { items, params: parseParams(input) };
    }
    items.push(parseItemAt(input));
    if (input.peek() !== ' ' && input.peek() !== ')') fail();
  }
}

function parseItemAt(input: Input): Item {
  const value = parseBareItem(input);
  return { value, params: parseParams(input) };
}

function parseParams(input: Input): Map<string, BareItem> {
  const params = new Map<string, BareItem>();
  while (input.peek() === ';') {
    input.at++;
    input.skip(' ');
    const key = parseKey(input);
    let value: BareItem = true;
    if (input.peek() === '=') {
      input.at++;
      value = parseBareItem(input);
    }
    params.set(key, value);
  }
  return params;
}

function parseKey(input: Input): string {
  if (!(LCALPHA.test(input.peek()) || input.peek() === '*')) fail();
  const start = input.at;
  while (!input.done && KEY_CHAR.test(input.peek())) input.at++;
  return input.text.slice(start, input.at);
}

function parseBareItem(input: Input): BareItem {
  const char = input.peek();
  if (char === '-' || /[0-9]/.test(char)) return parseNumber(input);
  if (char === '"') return parseString(input);
  if (char === ':') return parseBinary(input);
  if (char === '?') return parseBoolean(input);
  if (char === '@') {
    input.at++;
    const date = parseNumber(input);
    if (!Number.isInteger(date)) fail();
    return { date };
  }
  if (/[A-Za-z*]/.test(char)) {
    const start = input.at;
    input.at++;
    while (!input.done && TCHAR.test(input.peek())) input.at++;
    return { token: input.text.slice(start, input.at) };
  }
  return fail();
}

function parseNumber(input: Input): number {
  const match = /^(-?)(\d{1,15})(?:\.(\d{1,3}))?/.exec(input.text.slice(input.at));
  if (!match) fail();
  const [text, , digits = '', fraction] = match;
  if (fraction !== undefined && digits.length > 12) fail();
  // A decimal point must be followed by a digit, and a number by something that is not one.
  if (/^[0-9.]/.test(input.text.slice(input.at + text.length))) fail();
  input.at += text.length;
  return Number(text);
}

function parseString(input: Input): string {
  input.at++;
  let out = '';
  for (;;) {
    if (input.done) fail();
    const char = input.peek();
    input.at++;
    if (char === '"') return out;
    if (char === '\\') {
      const next = input.peek();
      if (next !== '"' && next !== '\\') fail();
      out += next;
      input.at++;
      continue;
    }
    const code = char.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) fail();
    out += char;
  }
}

function parseBinary(input: Input): Uint8Array {
  input.at++;
  const end = input.text.indexOf(':', input.at);
  if (end === -1) fail();
  const encoded = input.text.slice(input.at, end);
  if (!BASE64.test(encoded)) fail();
  input.at = end + 1;
  return new Uint8Array(Buffer.from(encoded, 'base64'));
}

function parseBoolean(input: Input): boolean {
  input.at++;
  const char = input.peek();
  if (char !== '0' && char !== '1') fail();
  input.at++;
  return char === '1';
}
