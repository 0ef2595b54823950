import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordExchange, recordRequest } from '../../src/client/record.ts';
import { createRedactor, redactHeaders } from '../../src/client/redact.ts';

const KEY = 'sk-live-Recognisable-7f3a9c2e51';

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');
const every = (f: (c: string, i: number) => string) => [...KEY].map(f).join('');
const base64Of = (text: string) => Buffer.from(text).toString('base64');

/** The key written by content in the forms a target can echo it in, wholly or partly escaped. */
const ENCODED_FORMS: Array<[string, string]> = [
  ['the key JSON-escaped, lower-case hex', every((c) => `\\u00${hex(c)}`)],
  ['the key JSON-escaped, upper-case hex', every((c) => `\\u00${hex(c).toUpperCase()}`)],
  ['the key partly JSON-escaped', every((c, i) => (i % 3 === 0 ? `\\u00${hex(c)}` : c))],
  ['the key wholly percent-encoded, upper-case hex', every((c) => `%${hex(c).toUpperCase()}`)],
  ['the key wholly percent-encoded, lower-case hex', every((c) => `%${hex(c)}`)],
  ['the key partly percent-encoded', every((c, i) => (i % 2 ? `%${hex(c)}` : c))],
  ['the key percent-encoded twice', every((c) => `%25${hex(c)}`)],
  ['the key as HTML character references', every((c, i) => (i % 2 ? `&#${c.charCodeAt(0)};` : `&#x${hex(c)};`))],
  ['the key \\x-escaped', every((c) => `\\x${hex(c)}`)],
  ['base64 of "Bearer key" (the key at the second byte of a quantum)', base64Of(`Bearer ${KEY}`).slice(8)],
  ['base64 of "u:key" (the key at the third byte of a quantum)', base64Of(`u:${KEY}`).slice(2)],
  ['base64url of the key', Buffer.from(KEY).toString('base64url')],
  ['base64 of ":key"', base64Of(`:${KEY}`)],
];

describe('redactor: the forms of the key a hostile target can echo back', () => {
  const redact = createRedactor(KEY);
  it.each([
    ['the key', KEY],
    ['the key in upper case', KEY.toUpperCase()],
    ['the key without its last character (AUTH-005)', KEY.slice(0, -1)],
    ['a same-shape key with a rotated tail (AUTH-002)', `${KEY.slice(0, -8)}e517f3a9`],
    ['base64 of the key (Basic)', Buffer.from(KEY).toString('base64')],
    ['base64 of "key:" (Basic)', Buffer.from(`${KEY}:`).toString('base64')],
    ['the key percent-encoded', encodeURIComponent(KEY)],
    ...ENCODED_FORMS,
  ])('scrubs %s', (_label, form) => {
    const out = redact(`{"echo":"Bearer ${form}","next":"/v1/pets"}`);
    expect(out).not.toContain(form);
    expect(out).not.toMatch(/Recognisable/i);
    expect(out).toContain('"next":"/v1/pets"');
  });

  it('leaves text without the key alone', () => {
    expect(redact('GET /v1/pets?limit=20 sk-other-key')).toBe('GET /v1/pets?limit=20 sk-other-key');
  });

  it('scrubs a header named after the key, in any form, and its value', () => {
    const headers = { [`x-${KEY.toLowerCase()}`]: 'yes', [every((c) => `%${hex(c)}`)]: KEY, 'content-type': 'application/json' };
    const out = JSON.stringify(redactHeaders(headers, redact));
    expect(out).not.toMatch(/recognisable|%52%65/i);
    expect(out).toContain('application/json');
  });

  it('a recorded exchange holds the key nowhere: header names and values, body, URL, error', () => {
    const wire = { method: 'GET', url: `http://t.example/v1/pets?k=${encodeURIComponent(KEY)}`, headers: { Authorization: `Bearer ${KEY}` } };
    const request = recordRequest(wire, { value: `Bearer ${KEY}`, display: 'Bearer ***', shell: 'Bearer $API_KEY' }, redact, KEY);
    const body = `{"echo":"${every((c) => `\\u00${hex(c)}`)}","b64":"${base64Of(`Bearer ${KEY}`)}"}`;
    const exchange = recordExchange(
      {
        seq: 1,
        startedAt: 0,
        durationMs: 1,
        operationId: 'listPets',
        request,
        response: { status: 200, headers: { [KEY]: 'x', 'x-echo': encodeURIComponent(KEY) }, text: body, bytes: Buffer.from(body) },
        error: { code: 'ERR_TARGET_UNREACHABLE', message: `failed for ${KEY.toUpperCase()}` },
        retries: 0,
      },
      redact,
    );
    const out = JSON.stringify(exchange);
    expect(out).not.toMatch(/recognisable/i);
    for (const [label, form] of ENCODED_FORMS) expect(out, label).not.toContain(form);
  });
});

/**
 * Forms an outside probe got through (every one read straight back as the key): reversed, hex, rot13,
 * base64 of the reversed key, fullwidth letters, a zero-width or a space between characters, UTF-16
 * written as JSON escapes, a key split across lines.
 */
describe('redactor: disguised copies of the key', () => {
  const key = 'SeCrEt-K3y-9f8e7d6c5b4a';
  const redact = createRedactor(key);
  const reversed = [...key].reverse().join('');
  const rot13 = key.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.charCodeAt(0) - (c <= 'Z' ? 65 : 97) + 13) % 26) + (c <= 'Z' ? 65 : 97)));
  const forms: Array<[string, string]> = [
    ['reversed', reversed],
    ['hex', Buffer.from(key).toString('hex')],
    ['HEX', Buffer.from(key).toString('hex').toUpperCase()],
    ['rot13', rot13],
    ['base64 of the reversed key', Buffer.from(reversed).toString('base64')],
    ['fullwidth', [...key].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('')],
    ['a zero-width space inside', `${key.slice(0, 8)}\u200b${key.slice(8)}`],
    ['spaced out', [...key].join(' ')],
    ['UTF-16LE as JSON escapes', [...key].map((c) => `${c}\\u0000`).join('')],
    ['UTF-16LE percent-encoded', [...key].map((c) => `${c}%00`).join('')],
    ['a percent-encoded NUL inside', `${key.slice(0, 8)}%00${key.slice(8)}`],
  ];
  it.each(forms)('%s is not readable in the redacted text', (_label, form) => {
    const out = redact(`{"echo":"${form}"}`);
    expect(out).not.toContain(form);
    const normal = out
      .normalize('NFKC')
      .replace(/[\p{Cf}\s]|\\u0000|%00/gu, '')
      .toLowerCase();
    expect(normal).not.toContain(key.toLowerCase().slice(0, 11));
    expect([...normal].reverse().join('')).not.toContain(key.toLowerCase().slice(0, 11));
  });

  it('a key split across lines leaves neither half', () => {
    const out = redact(`a=${key.slice(0, 11)}\n${key.slice(11)}`);
    expect(out).not.toContain(key.slice(0, 11));
    expect(out).not.toContain(key.slice(11));
  });

  it('text that merely resembles nothing of the key is left alone', () => {
    const text = 'the embedded reference at http://127.0.0.1:3000/v1 answered 200 with 20 pets';
    expect(redact(text)).toBe(text);
  });
});

describe('redactor: the shortcuts for plain and ASCII text redact exactly what the full scan does', () => {
  const redact = createRedactor(KEY);
  const withheld = (text: string) => text.includes('(withheld:');
  // Pieces an attacker mixes: the key and its parts, encoding marks, spacing and non-ASCII look-alikes.
  const piece = fc.constantFrom(
    KEY,
    KEY.slice(0, 12),
    KEY.slice(-12),
    KEY.toUpperCase(),
    '%',
    '%52',
    '\\u0065',
    '&#x52;',
    ' ',
    '\t',
    '\u0000',
    '\u200b',
    'Ｒｅｃｏ',
    'é',
    'x',
    '"',
  );
  const text = fc.array(fc.oneof(piece, fc.string({ maxLength: 6 })), { maxLength: 12 }).map((parts) => parts.join(''));

  it('a text and the same text followed by an encoding mark or a non-ASCII letter redact alike', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(' %', ' &', ' \\', ' é', ' \u00a0'), (sample, tail) => {
        const alone = redact(sample);
        const marked = redact(sample + tail);
        if (withheld(alone)) expect(withheld(marked)).toBe(true);
        else if (!withheld(marked)) expect(marked).toBe(alone + tail);
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  it('spacing, NUL and format characters between the key letters withhold an ASCII text as a non-ASCII one', () => {
    for (const gap of [' ', '\t', '\u0000', '\x7f', '\u200b', '\u00a0']) {
      const spaced = [...KEY].join(gap);
      expect(withheld(redact(`{"echo":"${spaced}"}`)), JSON.stringify(gap)).toBe(true);
      expect(withheld(redact(`{"echo":"${spaced}","é":1}`)), JSON.stringify(gap)).toBe(true);
    }
  });
});
