import { describe, expect, it } from 'vitest';
import { renderPet } from '../../src/reference/pet-json.ts';
import { randomIds } from '../../src/reference/random-ids.ts';
import { type PetStore, type StoreCalls, type StoreSettings, createPetStore } from '../../src/reference/store.ts';
import { INT64_MAX } from '../../src/text/json.ts';

/**
 * The store finds a pet by its place in the list while the ids follow it, and by a map once they do
 * not: both must answer every lookup as a map of every write would (the last write of an id wins).
 */

const same = <T>(value: T): T => value;
const CORRECT: StoreCalls = { idStart: same, assignId: same, copies: same };

function store(calls: Partial<StoreCalls> = {}, settings: Partial<StoreSettings> = {}): PetStore {
  return createPetStore({ idStart: 1n, render: renderPet, ...settings }, { ...CORRECT, ...calls });
}

/** Adds `count` pets and checks every lookup against a plain map of what was written. */
function addAndCompare(pets: PetStore, count: number, copiesOf: (index: number) => number = () => 1): void {
  const written = new Map<bigint, string>();
  for (let i = 0; i < count; i++) {
    const pet = pets.add({ name: `pet ${i}`, categoryId: i }, 0);
    if (copiesOf(i) > 0) written.set(pet.id, pet.name);
  }
  for (const [id, name] of written) expect(pets.get(id)?.name, `id ${id}`).toBe(name);
  const ids = [...written.keys()];
  const absent = [-1n, 0n, INT64_MAX, -INT64_MAX - 1n, ...ids.map((id) => id + 1_000_000n)].filter((id) => !written.has(id));
  for (const id of absent) expect(pets.get(id), `id ${id} was never written`).toBeUndefined();
}

describe('reference store: lookups by place and by map', () => {
  it('finds every pet of the sequence, and nothing outside it', () => {
    const pets = store();
    addAndCompare(pets, 50);
    expect(pets.get(1n)?.name).toBe('pet 0');
    expect(pets.get(50n)?.name).toBe('pet 49');
    expect(pets.get(51n)).toBeUndefined();
  });

  it('keeps ids past 2^53 exact', () => {
    const start = 2n ** 53n + 1n;
    const pets = store({}, { idStart: start });
    addAndCompare(pets, 5);
    expect(pets.get(start + 4n)?.name).toBe('pet 4');
    expect(pets.get(start - 1n)).toBeUndefined();
  });

  it('switches to a map when an id repeats: the last write of an id wins', () => {
    const pets = store({ assignId: (id, index) => (index % 2 === 1 ? id - 1n : id) });
    addAndCompare(pets, 20);
    expect(pets.get(1n)?.name).toBe('pet 1');
    expect(pets.size).toBe(20);
  });

  it('switches to a map when a write is lost or doubled', () => {
    const lost = (index: number) => (index === 3 ? 0 : 1);
    let writes = 0;
    const losing = store({ copies: (copies) => copies * lost(writes++) });
    addAndCompare(losing, 10, lost);
    expect(losing.get(4n)).toBeUndefined();
    expect(losing.size).toBe(9);
    const doubling = store({ copies: (copies) => copies * 2 });
    addAndCompare(doubling, 10);
    expect(doubling.size).toBe(20);
  });

  it('finds random ids, and a sequence that runs past int64 into random ones', () => {
    addAndCompare(store({}, { ids: randomIds }), 50);
    addAndCompare(store({}, { idStart: INT64_MAX - 2n }), 10);
  });
});
