import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taintCheck } from '../../src/client/key-filters.ts';

const KEY = 'embedded-kiwi-5f3a9c2e51d07b64e8a1';

/**
 * The check as taintCheck states it, with no first filter: the whole text normalised (NFKC, NUL escapes
 * and format characters, controls and spacing removed, lower-cased), then any 8 characters of the key,
 * forwards or backwards, looked for in it.
 */
function wholeText(secret: string): (text: string) => boolean {
  const grams = [secret, [...secret].reverse().join('')].flatMap((form) =>
    Array.from({ length: form.length - 7 }, (_, at) => form.slice(at, at + 8).toLowerCase()),
  );
  return (text) => {
    const normal = text
      .normalize('NFKC')
      .replace(/(?<!\\)\\+(?:u0000|x00)|%00/gi, '')
      .replace(/[\p{Cf}\p{Cc}\p{Z}\s]/gu, '')
      .toLowerCase();
    return grams.some((gram) => normal.includes(gram));
  };
}

/** Each ASCII character as a compatibility form NFKC turns back into it. */
const fullwidth = (s: string) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
const boldLetters = (s: string) =>
  s
    .replace(/[a-z]/g, (c) => String.fromCodePoint(0x1d41a + c.charCodeAt(0) - 0x61))
    .replace(/[0-9]/g, (c) => String.fromCodePoint(0x1d7ce + c.charCodeAt(0) - 0x30));
const between = (separator: string) => (s: string) => [...s].join(separator);

/** How a slice of the key is disguised: each a form the normal form reads back as the key. */
const disguises = [
  (s: string) => s,
  (s: string) => s.toUpperCase(),
  fullwidth,
  boldLetters,
  (s: string) => s.replaceAll('k', '\u212a'),
  // Lower-cased, a dotted I is an i and a combining dot: the dot parts the key.
  (s: string) => s.replaceAll('i', '\u0130'),
  between('\u200b'),
  between('\u00a0'),
  between('\u0000'),
  between('\\u0000'),
  between('\\\\x00'),
  between('%00'),
  between('\uff05\uff10\uff10'),
  between('%\uff10\uff10'),
  between('\\\uff550000'),
  between('\uff3cu0000'),
  between('\u00ad'),
  between('\u0085'),
  between(' \t'),
  // Marks after a letter compose with it: the letter is no longer the key's.
  between('\u0301'),
];

const piece = fc.oneof(
  fc
    .tuple(fc.nat({ max: KEY.length - 1 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom(...disguises))
    .map(([at, length, disguise]) => disguise(KEY.slice(at, at + length))),
  fc
    .tuple(fc.nat({ max: KEY.length - 1 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom(...disguises))
    .map(([at, length, disguise]) => disguise([...KEY.slice(at, at + length)].reverse().join(''))),
  fc.constantFrom(
    '\\',
    '\\\\',
    '%',
    '%0',
    '\uff3c',
    '\uff05',
    'u',
    'x00',
    '\u0301',
    '\u0307',
    '\u0338',
    '\u03a3',
    '\u00e9',
    '\ud83d',
    '\ude00',
    '\ufb00',
    '\u3392',
  ),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const text = fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join(''));

describe('taintCheck: the first filter reads characters past ASCII one by one', () => {
  const tainted = taintCheck(KEY);
  const reference = wholeText(KEY);

  it('answers as the whole text normalised does, for texts built around the key in every disguise', () => {
    let found = 0;
    fc.assert(
      fc.property(text, (t) => {
        const expected = reference(t);
        expect(tainted(t)).toBe(expected);
        if (expected) found += 1;
      }),
      { numRuns: 5000 },
    );
    // The texts hold the key often enough for a filter that drops it to be caught.
    expect(found).toBeGreaterThan(250);
  });

  it('finds the key in each disguise, forwards and backwards, between other scripts', () => {
    const parted = [5, disguises.length - 1];
    for (const [form, disguise] of disguises.entries()) {
      for (const slice of [KEY.slice(2, 12), [...KEY.slice(5, 15)].reverse().join('')]) {
        const shown = `Zoë ☃ ${disguise(slice)} 名前`;
        expect(tainted(shown), `disguise ${form}`).toBe(parted.includes(form) ? reference(shown) : true);
      }
    }
    expect(tainted(`Zoë ${between('\u0301')(KEY.slice(2, 12))}`)).toBe(false);
    expect(tainted('{"name":"Zoë ☃ Ωmega 名前","status":"available"}')).toBe(false);
  });
});
