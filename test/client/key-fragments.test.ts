import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fragmentsOf, unionOfPairs } from '../../src/client/key-fragments.ts';
import { pieceSet } from '../../src/client/key-pieces.ts';

/** Every index set in a table of ASCII pairs, read entry by entry. */
const setIn = (table: Uint8Array) => table.reduce<number[]>((found, value, pair) => (value === 1 ? [...found, pair] : found), []);

describe('the lists of pairs a redactor unites its tables from', () => {
  it('list exactly the pairs each table holds, each once', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 4 }), fc.boolean(), (texts, folded) => {
        const set = fragmentsOf(texts, 8, folded);
        if (!set) return;
        expect([...set.asciiPairList].sort((a, b) => a - b)).toEqual(setIn(set.asciiPairs));
      }),
    );
    const pieces = pieceSet('embedded5f3a9c2e51d07b64e8a1');
    expect([...pieces!.pairList].sort((a, b) => a - b)).toEqual(setIn(pieces!.pairs));
  });

  it('unite to the entry-by-entry union of the tables', () => {
    const sets = [fragmentsOf(['embedded-kiwi'], 8, true)!, fragmentsOf(['ZW1iZWRkZWQta2l3aQ'], 8, false)!];
    const union = unionOfPairs(sets.map((set) => set.asciiPairList));
    expect(setIn(union)).toEqual(setIn(sets[0]!.asciiPairs.map((value, pair) => value | sets[1]!.asciiPairs[pair]!)));
  });
});
