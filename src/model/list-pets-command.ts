import type fc from 'fast-check';
import { type PetRecord, describePet, toPetRecords } from './pets.ts';
import type { StoreAnswer, StoreReal } from './pet-store.ts';
import { type StoreModel, briefText, differences, isOurs } from './store-model.ts';

/** The largest page: a list shorter than this is the whole (filtered) store. */
export const LIST_LIMIT = 100;

/**
 * listPets(limit 100, status?) agrees with the model on this run's pets: none duplicated, none unknown
 * (a duplicated write shows as an extra pet with our tag), each exactly as created, each matching the
 * filter; and when the list is shorter than the limit it is complete, so every matching pet of ours
 * appears (a lost write is missing). Other people's pets are only checked for duplicates and status.
 */
export class ListPetsCommand implements fc.AsyncCommand<StoreModel, StoreReal> {
  constructor(readonly status: string | undefined) {}

  check(): boolean {
    return true;
  }

  async run(model: StoreModel, real: StoreReal): Promise<void> {
    const query = this.status === undefined ? { limit: LIST_LIMIT } : { limit: LIST_LIMIT, status: this.status };
    this.judge(model, await real.store.listPets(query), real);
  }

  /** Judges the answer to this listPets (also when the log is replayed). */
  judge(model: StoreModel, response: StoreAnswer, real: StoreReal): void {
    if (response.status !== 200 || !Array.isArray(response.body)) {
      real.fail(`${this} answers 200 with a list`, `status ${response.status} with ${briefText(response.text)}`);
    }
    const items = toPetRecords(response.body);
    const seen = new Set<bigint>();
    for (const pet of items) {
      if (seen.has(pet.id)) real.fail(`${this} lists each pet once`, `id ${pet.id} listed twice`);
      seen.add(pet.id);
      if (this.status !== undefined && pet.status !== this.status) real.fail(`${this} lists only ${this.status} pets`, `it lists ${describePet(pet)}`);
      if (isOurs(model, pet)) this.checkOurs(model, real, pet);
    }
    if (response.body.length >= LIST_LIMIT) return;
    for (const pet of model.pets.values()) {
      if (this.matches(pet) && !seen.has(pet.id)) {
        real.fail(`${this}, a complete list (${response.body.length} < ${LIST_LIMIT} items), to hold ${describePet(pet)}`, 'it is missing: the write is lost');
      }
    }
  }

  private checkOurs(model: StoreModel, real: StoreReal, pet: PetRecord): void {
    const expected = model.pets.get(pet.id);
    if (!expected) real.fail(`${this} lists only the pets this run created`, `it lists ${describePet(pet)}, never created: a duplicated write`);
    const diff = differences(expected, pet);
    if (diff) real.fail(`${this} lists the pet as created`, diff);
  }

  private matches(pet: PetRecord): boolean {
    return this.status === undefined || pet.status === this.status;
  }

  toString(): string {
    return this.status === undefined ? `listPets({limit: ${LIST_LIMIT}})` : `listPets({limit: ${LIST_LIMIT}, status: ${JSON.stringify(this.status)}})`;
  }
}
