import type fc from 'fast-check';
import { describePet, toPetRecord } from './pets.ts';
import type { StoreAnswer, StoreReal } from './pet-store.ts';
import { type StoreModel, briefText, isOurs } from './store-model.ts';

/** Ids this close to one the run created are not used: a server may assign ids in sequence. */
export const UNKNOWN_ID_DISTANCE = 1_000_000n;

/**
 * getPet of an id this run never created → 404. On a shared store another client may own that id, so a
 * 200 is accepted when the pet is not ours; a 200 with one of our pets means ids are confused.
 */
export class GetUnknownPetCommand implements fc.AsyncCommand<StoreModel, StoreReal> {
  constructor(readonly petId: bigint) {}

  check(model: Readonly<StoreModel>): boolean {
    for (const id of model.pets.keys()) {
      const distance = id > this.petId ? id - this.petId : this.petId - id;
      if (distance < UNKNOWN_ID_DISTANCE) return false;
    }
    return true;
  }

  async run(model: StoreModel, real: StoreReal): Promise<void> {
    this.judge(model, await real.store.getPet(this.petId), real);
  }

  /** Judges the answer to getPet of this id (also when the log is replayed). */
  judge(model: StoreModel, response: StoreAnswer, real: StoreReal): void {
    if (response.status === 404) return;
    const expected = `${this} answers 404 (or, on a shared store, 200 with a pet that is not ours)`;
    const pet = response.status === 200 ? toPetRecord(response.body) : undefined;
    if (!pet) real.fail(expected, `status ${response.status} with ${briefText(response.text)}`);
    if (isOurs(model, pet) || model.pets.has(pet.id)) real.fail(expected, `200 with our pet ${describePet(pet)}`);
  }

  toString(): string {
    return `getPet(${this.petId}n /* never created */)`;
  }
}
