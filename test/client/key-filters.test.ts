import { describe, expect, it } from 'vitest';
import { filterSets, mayHoldFragment } from '../../src/client/key-filters.ts';
import { fragmentsOf } from '../../src/client/key-fragments.ts';

/** A key that holds the pairs `10` and `00` (and `01`, read backwards): every pair of `1000000000`. */
const KEY = 'embedded-7c100a2e51d07b64e8a1';

const folded = (texts: string[]) => filterSets([fragmentsOf(texts, 8, true)], []);
const exact = (texts: string[]) => filterSets([], [fragmentsOf(texts, 8, false)]);

describe('the first filter: a run of the key pairs that is no fragment of it', () => {
  it('passes the digits of a rate-limit header, which are only pairs of the key, without the full scan', () => {
    const filter = folded([KEY, [...KEY].reverse().join('')]);
    expect(mayHoldFragment(['1000000000'], filter)).toBe(false);
    expect(mayHoldFragment(['application/json', '1000000000', '"minute";q=1000000000;w=60'], filter)).toBe(false);
  });

  it('still answers true for a fragment, in any letter case, and for one split across texts', () => {
    const filter = folded([KEY]);
    expect(mayHoldFragment(['q=1000000000;x=7C100A2E51'], filter)).toBe(true);
    expect(mayHoldFragment(['1000000000-7c10', '0a2e51'], filter)).toBe(true);
  });

  it('looks a folded set up folded and an exact set as written', () => {
    expect(mayHoldFragment(['ZW1IZWRKZWQT'], folded(['ZW1iZWRkZWQt']))).toBe(true);
    expect(mayHoldFragment(['ZW1IZWRKZWQT'], exact(['ZW1iZWRkZWQt']))).toBe(false);
    expect(mayHoldFragment(['ZW1iZWRkZWQt'], exact(['ZW1iZWRkZWQt']))).toBe(true);
  });
});
