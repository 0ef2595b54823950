import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, createRedactorOf, redactHeaders } from '../../src/client/redact.ts';

const KEY = 'embedded-kiwi-5f3a9c2e51d07b64e8a1';
const SNOWMAN = '\u2603';
/**
 * A text that always takes the full scan: `%25` is a percent-encoded character (a lone `%` is not), and a
 * character that folds to nothing ASCII ends every run of the key's characters, so the prefix can neither
 * hide nor add a fragment.
 */
const FORCE_SCAN = `%25${SNOWMAN}`;

/** How a slice of the key is spelt: as is, upper-cased, with letters that fold to its own (Kelvin sign, dotted I), across lines. */
const spellings = [
  (s: string) => s,
  (s: string) => s.toUpperCase(),
  (s: string) => s.replaceAll('k', '\u212a').replaceAll('i', '\u0130'),
  (s: string) => `${s.slice(0, s.length / 2)}\n  ${s.slice(s.length / 2)}`,
];

/** One character written as an escape the full scan decodes: percent-encoded (once or twice), an HTML reference, a backslash escape. */
const escapes = [
  (c: string) => `%${c.charCodeAt(0).toString(16)}`,
  (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  (c: string) => `%25${c.charCodeAt(0).toString(16)}`,
  (c: string) => `&#${c.charCodeAt(0)};`,
  (c: string) => `&#x${c.charCodeAt(0).toString(16)};`,
  (c: string) => `\\u00${c.charCodeAt(0).toString(16)}`,
  (c: string) => `\\x${c.charCodeAt(0).toString(16)}`,
];

/** A fragment of the key with some of its characters escaped: only the decoding scan sees it whole. */
const escapedFragment = fc
  .tuple(fc.nat({ max: KEY.length - 8 }), fc.integer({ min: 8, max: 12 }), fc.array(fc.nat({ max: escapes.length }), { minLength: 12, maxLength: 12 }))
  .map(([at, length, forms]) => [...KEY.slice(at, at + length)].map((c, i) => (forms[i]! < escapes.length ? escapes[forms[i]!]!(c) : c)).join(''));

/** Texts built from what decides the first filter: key fragments in any spelling, escapes, backslashes, other scripts. */
const piece = fc.oneof(
  fc
    .tuple(fc.nat({ max: KEY.length - 1 }), fc.integer({ min: 1, max: 14 }), fc.constantFrom(...spellings))
    .map(([at, length, spell]) => spell(KEY.slice(at, at + length))),
  fc.constantFrom(
    '\\',
    '\\\\',
    '\\\\\\',
    '\\"',
    '\\u0065',
    '\\x65',
    '\\n',
    '"',
    '\u212a',
    '\u0130',
    '\u00e9',
    '\ud83d\ude00',
    '\n',
    ' ',
    '\t',
    '%65',
    '%6',
    '%',
    '%zz',
    '%c3',
    '&#101;',
    '&#',
    '&#x',
    '&',
    '&amp;',
  ),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.nat({ max: KEY.length - 1 }).map((at) => Buffer.from(KEY.slice(at)).toString('base64')),
  escapedFragment,
);
const text = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

/** What the prefixed text shows: the prefix and what the text alone shows, or the whole withheld when that was. */
const shownAfter = (prefix: string, shown: string) => (shown.includes('(withheld:') ? shown : `${prefix}${shown}`);

describe('redactor: the first filter decides only what the full scan would', () => {
  const redact = createRedactor(KEY);

  it('a text redacts the same whether or not the first filter lets it pass', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(redact(`${FORCE_SCAN}${t}`)).toBe(shownAfter(FORCE_SCAN, redact(t)));
      }),
      { numRuns: 3000 },
    );
  });

  it('texts judged as one sequence redact the same whether or not the first filter lets them pass', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (texts) => {
        expect(redact.pieces([FORCE_SCAN, ...texts])).toEqual([FORCE_SCAN, ...redact.pieces(texts)]);
      }),
      { numRuns: 1500 },
    );
  });

  it('sends a fragment readable only once decoded to the full scan, beside a % and an & that start no escape', () => {
    for (const [form, escape] of escapes.entries()) {
      for (const at of [0, 4, 7]) {
        const fragment = [...KEY.slice(at, at + 9)].map((c, i) => (i === 4 ? escape(c) : c)).join('');
        const shown = redact(`100% of {"name":"Tom & Jerry ${fragment}"}`);
        expect(shown, `form ${form} at ${at}: ${fragment}`).toContain('***');
        expect(shown, `form ${form} at ${at}`).not.toContain(fragment);
      }
    }
  });

  it('passes plain and accented text, a Kelvin sign and escaped quotes through unchanged, and still finds the key in them', () => {
    for (const plain of ['{"name":"Zoë \\"K\\" ☃","status":"available"}', 'text/plain; charset=utf-8', `\u212a${KEY.slice(0, 7)}`]) {
      expect(redact(plain)).toBe(plain);
    }
    expect(redact(`{"name":"Zoë \\"${KEY.slice(3, 20)}\\" ☃"}`)).toBe('{"name":"Zoë \\"***\\" ☃"}');
    // The Kelvin sign folds to k: seven characters of the key and a Kelvin sign are a fragment of it.
    const kelvin = createRedactor('abcdefgkhijklmn0');
    expect(kelvin('x abcdefg\u212a y')).toBe('x *** y');
  });
});

describe('redactor of several secrets: headers judged as one sequence', () => {
  it('removes a key split across four headers in pieces shorter than a fragment', () => {
    const redact = createRedactorOf([KEY, 'proxy-password-0123']);
    const split = { 'x-a': KEY.slice(0, 7), 'x-b': KEY.slice(7, 14), 'x-c': KEY.slice(14, 21), 'x-d': KEY.slice(21), 'content-type': 'text/plain' };
    const shown = redactHeaders(split, redact);
    const joined = Object.values(shown).join('').toLowerCase();
    for (let at = 0; at + 8 <= KEY.length; at += 1) expect(joined).not.toContain(KEY.slice(at, at + 8).toLowerCase());
    expect(shown['content-type']).toBe('text/plain');
    expect(redactHeaders({ 'x-p': 'proxy-pa', 'x-q': 'ssword-0123' }, redact)).not.toEqual({ 'x-p': 'proxy-pa', 'x-q': 'ssword-0123' });
  });
});
