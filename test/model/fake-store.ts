import type { StoreUnderTest, StoreAnswer } from '../../src/model/index.ts';

/**
 * Faults depend on the request, not on a counter, so a failing sequence fails again when replayed and
 * shrinks: writes of a categoryId divisible by 3 are lost, writes of an even categoryId are stored twice.
 */
export type FakeFault = 'none' | 'lose-some-writes' | 'duplicate-some-writes' | 'list-ignores-status' | 'get-returns-last-pet';

export interface FakeStoreOptions {
  fault?: FakeFault;
  /** Other people's pets already in the store (a shared staging store). */
  foreignPets?: number;
  /** Other people's pets at these ids (where the model looks for ids it never created). */
  foreignIds?: readonly bigint[];
  /** Ids are assigned in sequence from here; default 1. */
  firstId?: bigint;
}

interface StoredPet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: string;
}

const answer = (status: number, body: unknown): StoreAnswer => ({
  status,
  body,
  text: JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
});

/** An in-memory Animal Store with one injectable fault, answering as the model's StoreUnderTest. */
export function createFakeStore(options: FakeStoreOptions = {}): StoreUnderTest & { readonly size: number } {
  const fault = options.fault ?? 'none';
  const pets = new Map<bigint, StoredPet>();
  let nextId = options.firstId ?? 1n;
  const store = (pet: Omit<StoredPet, 'id'>): StoredPet => {
    const stored = { ...pet, id: nextId++ };
    pets.set(stored.id, stored);
    return stored;
  };
  for (let i = 0; i < (options.foreignPets ?? 0); i++) {
    store({ name: `someone else's pet ${i}`, categoryId: BigInt(i), status: ['available', 'pending', 'sold'][i % 3]! });
  }
  for (const id of options.foreignIds ?? []) pets.set(id, { id, name: `someone else's pet at ${id}`, categoryId: 1n, status: 'sold' });
  return {
    get size() {
      return pets.size;
    },
    async createPet(body) {
      const { name, categoryId, status } = body as { name: string; categoryId: bigint; status?: string };
      const pet: Omit<StoredPet, 'id'> = { name, categoryId: BigInt(categoryId), ...(status === undefined ? {} : { status }) };
      if (fault === 'lose-some-writes' && pet.categoryId % 3n === 0n) return answer(201, { ...pet, id: nextId++ });
      const stored = store(pet);
      if (fault === 'duplicate-some-writes' && pet.categoryId % 2n === 0n) store(pet);
      return answer(201, stored);
    },
    async getPet(petId) {
      const pet = pets.get(petId);
      if (pet) return answer(200, pet);
      if (fault === 'get-returns-last-pet' && pets.size > 0) return answer(200, [...pets.values()].at(-1));
      return answer(404, { code: 'not_found', message: 'no such pet', status: 404 });
    },
    async listPets({ limit, status }) {
      // Newest first, like a store that pages by recency.
      const out: StoredPet[] = [];
      const all = [...pets.values()];
      for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
        const pet = all[i]!;
        if (status === undefined || fault === 'list-ignores-status' || pet.status === status) out.push(pet);
      }
      return answer(200, out);
    },
  };
}
