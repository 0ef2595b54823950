import { defineFault } from './hooks.ts';
import type { StoredPet } from '../store.ts';

const ABOVE_2_53 = 2n ** 53n + 1n;

/** Writes lost or doubled, ids reused or rounded, int64 values through doubles, wrong pets read. */
export const STORE_FAULTS = [
  defineFault({
    name: 'lost-write',
    group: 'store',
    description: 'createPet answers 201 with the new Pet but does not store it.',
    detectedBy: ['CON-001', 'CON-002', 'CON-003', 'STA-003', 'LIM-006', 'DEP-001', 'INT-004'],
    hooks: () => ({ copies: () => 0 }),
  }),
  defineFault({
    name: 'duplicate-write',
    group: 'store',
    description: 'Every new pet is written twice: listPets shows it twice under one id.',
    detectedBy: ['CON-002', 'CON-003'],
    hooks: () => ({ copies: (copies) => copies * 2 }),
  }),
  defineFault({
    name: 'list-cached-per-query',
    group: 'store',
    description: 'listPets answers each query (limit and status) from the list as it was the first time that query was asked: a pet stored since is missing.',
    // The lists asked for before and after a create (createAndListByStatus) and the stateful model's.
    detectedBy: ['CON-003', 'LIM-006', 'CON-002'],
    hooks: () => {
      const lists = new Map<string, readonly StoredPet[]>();
      let query = '';
      return {
        listQuery: (interpreted) => {
          query = `${String(interpreted.limit)} ${String(interpreted.status)}`;
          return interpreted;
        },
        listSource: (pets) => {
          const kept = lists.get(query) ?? pets.slice();
          lists.set(query, kept);
          return kept;
        },
      };
    },
  }),
  defineFault({
    name: 'id-reuse',
    group: 'store',
    description: 'Every second pet gets the id of the pet created before it.',
    detectedBy: ['INT-003', 'INT-004', 'CON-002'],
    hooks: () => ({ assignId: (id, index) => (index % 2 === 1 ? id - 1n : id) }),
  }),
  defineFault({
    name: 'category-id-through-double',
    group: 'store',
    description: 'categoryId is stored as a double: values beyond 2^53 come back rounded.',
    detectedBy: ['INT-001'],
    hooks: () => ({ newPet: (pet) => ({ ...pet, categoryId: Number(pet.categoryId) }) }),
  }),
  defineFault({
    name: 'integer-forms-through-double',
    group: 'store',
    description: 'A categoryId written with an exponent or a fraction (9007199254740993.0) is read through a double and stored rounded.',
    // STA-013: a fraction the double rounds away (1.0000000000000001) is then accepted as 1.
    detectedBy: ['INT-001', 'STA-013'],
    hooks: () => ({ exactNumbers: () => false }),
  }),
  defineFault({
    name: 'large-id-rounded',
    group: 'store',
    description: 'Ids start above 2^53 and are written through a double, so the id a client sees is not the stored one.',
    // Not DEP-001: its one pet reads back when its id happens to be even (exact in a double).
    detectedBy: ['INT-003', 'INT-004', 'CON-001'],
    hooks: () => ({
      idStart: (start) => (start > ABOVE_2_53 ? start : ABOVE_2_53),
      petWire: (wire, pet) => ({ ...wire, id: String(Number(pet.id)) }),
    }),
  }),
  defineFault({
    name: 'get-returns-other-pet',
    group: 'store',
    description: 'getPet answers with the pet stored next to the requested one.',
    detectedBy: ['CON-001', 'DEP-001', 'INT-004'],
    hooks: () => ({
      findPet: (pet, store) => {
        if (!pet) return pet;
        const all = store.all();
        const at = all.indexOf(pet);
        return all[at > 0 ? at - 1 : at + 1] ?? pet;
      },
    }),
  }),
  defineFault({
    name: 'list-drops-newest',
    group: 'store',
    description: 'listPets never shows the most recently created pet.',
    detectedBy: ['LIM-006', 'CON-003'],
    hooks: () => ({ listSource: (pets) => pets.slice(0, -1) }),
  }),
  defineFault({
    name: 'list-drops-oldest',
    group: 'store',
    description: 'listPets never shows the first pet ever stored: only a client that remembers every pet it added sees one missing.',
    detectedBy: ['CON-003'],
    hooks: () => ({ listSource: (pets) => pets.slice(1) }),
  }),
] as const;

/**
 * The store as real servers get it wrong: writes lost under load, id counters per worker, int64 ids
 * through doubles, caches that are not invalidated, enum mappings missing a value.
 */

/** Ids of the kind a snowflake generator issues: far above 2^53. */
const SNOWFLAKE_START = 2n ** 60n;

export const INDEPENDENT_STORE_FAULTS = [
  defineFault({
    name: 'ind-store-every-7th-lost',
    group: 'store',
    description: 'Every 7th write is lost (a batch flush that drops its last entry): the pet is answered with 201 but never stored.',
    detectedBy: ['CON-001', 'CON-002', 'CON-003', 'LIM-006'],
    hooks: () => {
      let writes = 0;
      return { copies: (copies) => (++writes % 7 === 0 ? 0 : copies) };
    },
  }),
  defineFault({
    name: 'ind-store-per-worker-ids',
    group: 'store',
    description: 'Two workers each keep their own in-memory id counter and take turns: ids 1, 1, 2, 2, 3… are given twice.',
    detectedBy: ['INT-003', 'CON-001', 'CON-002'],
    hooks: () => ({ assignId: (id, index) => id - BigInt(index) + BigInt(Math.floor(index / 2)) }),
  }),
  defineFault({
    name: 'ind-store-ids-through-double',
    group: 'store',
    description:
      'Ids are snowflakes above 2^60, written to JSON through a double: the id shown is rounded, shared by neighbours and finds another pet or none.',
    detectedBy: ['INT-003', 'INT-004', 'CON-001'],
    hooks: () => ({
      idStart: () => SNOWFLAKE_START,
      petWire: (wire) => (wire.id === undefined ? wire : { ...wire, id: String(Number(wire.id)) }),
    }),
  }),
  defineFault({
    name: 'ind-store-petid-through-double',
    group: 'store',
    description: 'Ids are snowflakes above 2^60, shown exactly, but getPet parses petId with Number(): the created pet is not found.',
    detectedBy: ['INT-004', 'CON-001', 'STA-003'],
    hooks: () => ({
      idStart: () => SNOWFLAKE_START + 1n,
      petId: (id) => (id === undefined ? undefined : BigInt(Number(id))),
    }),
  }),
  defineFault({
    name: 'ind-store-stale-list-cache',
    group: 'store',
    description: 'listPets answers from a cache filled by the previous list call and not invalidated by writes: a pet just added is missing.',
    detectedBy: ['LIM-006', 'CON-003'],
    hooks: () => {
      let snapshot: readonly StoredPet[] | undefined;
      return {
        listSource: (pets) => {
          const served = snapshot ?? pets;
          snapshot = pets.slice();
          return served;
        },
      };
    },
  }),
  defineFault({
    name: 'ind-store-sold-unmapped',
    group: 'store',
    description: 'The database enum mapping lacks "sold": a pet added as sold is stored and returned as available.',
    detectedBy: ['SCH-005', 'CON-001'],
    hooks: () => ({ newPet: (pet) => (pet.status === 'sold' ? { ...pet, status: 'available' } : pet) }),
  }),
] as const;
