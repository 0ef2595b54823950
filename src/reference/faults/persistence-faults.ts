import { defineFault } from './hooks.ts';
import type { StoredPet } from '../store.ts';

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
