import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Units, decode, decodedText } from '../../src/client/escaped-text.ts';
import { keptUnits } from '../../src/client/key-marks.ts';
import { createRedactor } from '../../src/client/redact.ts';

const KEY = 'embedded-kiwi-5f3a9c2e51d07b64e8a1';

/** What the full scan reads in one text: the units decode() gives, less keptUnits' line breaks, as a string. */
function scanned(text: string): string {
  const units = new Units(text.length);
  decode(text, 0, units);
  return [...keptUnits(units)].map((i) => String.fromCodePoint(units.codes[i]!)).join('');
}

/** Pieces that decide how a text decodes: escapes of every kind, runs of backslashes, spacing and line breaks, surrogates. */
const piece = fc.oneof(
  fc.constantFrom(
    '\\',
    '\\\\',
    '\\\\r',
    '\\r',
    '\\n',
    '\\t',
    '\\"',
    '\\u0065',
    '\\u{1d400}',
    '\\x41',
    '\\x5c',
    '\\ud835',
    '&#101;',
    '&#x212a;',
    '&#92;',
    '&#xdc00;',
    '&#',
    '&',
    '%',
    '%zz',
    '%41',
    '\n',
    '\r\n',
    ' ',
    '\t',
    '\ud835',
    '\udc00',
    '\ud83d\ude00',
    'u0041',
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);
const text = fc.array(piece, { maxLength: 14 }).map((pieces) => pieces.join(''));

describe('decodedText: a text as the full scan reads it', () => {
  it('is the string of the units the full scan reads, wherever it gives one', () => {
    fc.assert(
      fc.property(text, (t) => {
        const decoded = decodedText(t);
        if (decoded !== undefined) expect(decoded).toBe(scanned(t));
      }),
      { numRuns: 4000 },
    );
  });

  it('gives one for texts without a percent-encoded character or an escaped half of a surrogate pair', () => {
    expect(decodedText('{"name":"Tom & Jerry 100% \\\\r\\\\u","next":"a\\nb"}')).toBe('{"name":"Tom & Jerry 100%\\\\u","next":"ab"}');
    expect(decodedText('&#107;ey \\x41 \\u{1d400} x\r\n  y')).toBe('key A 𝐀 xy');
    expect(decodedText('a\\\\"b')).toBe('a\\\\"b');
    // Only an & starts a character reference: a # after anything else is read as it is.
    expect(decodedText('x #65; 100%#66; \\#67;')).toBe('x #65; 100%#66; \\#67;');
  });

  it('gives none where a string cannot stand for the units', () => {
    expect(decodedText('a%41b')).toBeUndefined();
    expect(decodedText('a%2541b')).toBeUndefined();
    expect(decodedText('a\\ud835\\udc00b')).toBeUndefined();
    expect(decodedText('a&#xd835;b')).toBeUndefined();
    // Both ends of the surrogates; the code points beside them are one character each.
    expect(decodedText('a&#xd800;b')).toBeUndefined();
    expect(decodedText('a&#xdfff;b')).toBeUndefined();
    expect(decodedText('a&#xd7ff;&#xe000;b')).toBe('a\ud7ff\ue000b');
    // Dropped, the line break would join the halves of a pair into a letter the units keep apart.
    expect(decodedText('a\ud835\n\udc00b')).toBeUndefined();
  });
});

describe('redactor: a text with an escape is read decoded by the first filter', () => {
  const redact = createRedactor(KEY);

  it('passes a list body whose names hold escapes through unchanged', () => {
    const body = JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ id: i, name: `Milo \\r\\u ${i}\t`, status: 'available' })));
    expect(redact(body)).toBe(body);
  });

  it('still finds the key split by an escaped line break, or spelt with escapes, in such a body', () => {
    const names = [
      'Milo \\r',
      `${KEY.slice(0, 6)}\\r\\n${KEY.slice(6, 14)}`,
      `&#${KEY.charCodeAt(0)};${KEY.slice(1, 12)}`,
      `\\x${KEY.charCodeAt(0).toString(16)}${KEY.slice(1, 12)}`,
    ];
    for (const name of names.slice(1)) {
      const shown = redact(JSON.stringify([{ name: names[0] }, { name }]));
      expect(shown, name).toContain('***');
      expect(shown.toLowerCase(), name).not.toContain(KEY.slice(1, 9));
    }
  });

  it('finds the key whose halves a line break between the halves of a surrogate pair would hide', () => {
    // Four of the key's letters and digits on each side: its skeleton, read around the pair's halves, which it skips.
    const shown = redact(`{"name":"x kiwi\ud835\n\udc005f3a y"}`);
    expect(shown).not.toContain('5f3a');
  });
});
