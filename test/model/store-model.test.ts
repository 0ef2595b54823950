import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INT64_EDGES } from '../../src/arbitraries/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { runStoreModel, storeCommands, type StoreUnderTest } from '../../src/model/index.ts';
import { type FakeFault, createFakeStore } from './fake-store.ts';

const contract = createContract();
const TAG_LENGTH = 'test-run #000'.length;
const commands = fc.commands(storeCommands(contract, { maxTagLength: TAG_LENGTH }), { maxCommands: 30 });

class ModelDisagreement extends Error {}
const fail = (expected: string, actual: string): never => {
  throw new ModelDisagreement(`expected ${expected}, got ${actual}`);
};

/** Runs the model against `store` as the suite does: one fresh tag per run, the store kept across runs. */
async function check(store: StoreUnderTest, numRuns = 100) {
  let runs = 0;
  const property = fc.asyncProperty(commands, (cmds) => runStoreModel(cmds, { store, fail, tag: `test-run #${String(++runs).padStart(3, '0')}` }));
  return fc.check(property, { numRuns, seed: 20240601 });
}

describe('stateful model of the store (CON-002)', () => {
  it('agrees with a correct store', async () => {
    const details = await check(createFakeStore());
    expect(details.failed, String(details.errorInstance)).toBe(false);
  });

  it('stays sound on a shared store: foreign pets, full lists, foreign ids near ours', async () => {
    // 250 foreign pets: lists of 100 are full (only "at most" is provable); sequential ids mean an
    // "unknown" id may well be someone else's pet.
    const details = await check(createFakeStore({ foreignPets: 250, firstId: -5n }));
    expect(details.failed, String(details.errorInstance)).toBe(false);
    // Someone else's pets at the int64 edges, which GetUnknownPet asks for: a 200 there is not a fault.
    const edges = await check(createFakeStore({ foreignIds: INT64_EDGES, firstId: 10n ** 12n }));
    expect(edges.failed, String(edges.errorInstance)).toBe(false);
  });

  const faults: Array<[FakeFault, RegExp]> = [
    ['lose-some-writes', /lost|status 404/],
    ['duplicate-some-writes', /duplicated write/],
    ['list-ignores-status', /lists only \w+ pets/],
    ['get-returns-last-pet', /our pet/],
  ];
  for (const [fault, message] of faults) {
    it(`catches a store that has the fault "${fault}", with a readable counterexample`, async () => {
      const details = await check(createFakeStore({ fault }));
      expect(details.failed).toBe(true);
      expect(details.errorInstance).toBeInstanceOf(ModelDisagreement);
      expect(String((details.errorInstance as Error).message)).toMatch(message);
      const shown = String(details.counterexample?.[0]);
      expect(shown).toMatch(/^(createPet|getPet|listPets)\(/);
      // The commands that ran print with the run's real tag and the ids the store assigned.
      if (shown.includes('createPet(')) expect(shown).toMatch(/createPet\(\{name: "test-run #\d{3} .*", categoryId: -?\d+n.*\}\) → id -?\d+n/);
    });
  }

  it('a lost write shrinks to the write and the read that misses it', async () => {
    const details = await check(createFakeStore({ fault: 'lose-some-writes' }));
    expect(details.failed).toBe(true);
    const ran = String(details.counterexample?.[0])
      .split(' /*')[0]!
      .split(/,(?=(?:createPet|getPet|listPets)\()/);
    expect(ran).toHaveLength(2);
    expect(ran[0]).toMatch(/^createPet\(\{name: "test-run #\d+ ", categoryId: 0n\}\) → id \d+n$/);
    expect(ran[1]).toMatch(/^(getPet\(\d+n\)|listPets\(\{limit: 100\}\))$/);
  });
});
