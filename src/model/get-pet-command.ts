import fc from 'fast-check';
import { toPetRecord } from './pets.ts';
import type { StoreAnswer, StoreReal } from './pet-store.ts';
import { type StoreModel, briefText, differences } from './store-model.ts';

/** getPet of a pet this run created → 200 with exactly the model's pet (a lost write answers 404). */
export class GetPetCommand implements fc.AsyncCommand<StoreModel, StoreReal> {
  private fetched: bigint | undefined;

  /** `pick` chooses among the pets created so far (modulo their number). */
  constructor(readonly pick: number) {}

  check(model: Readonly<StoreModel>): boolean {
    return model.pets.size > 0;
  }

  async run(model: StoreModel, real: StoreReal): Promise<void> {
    const ids = [...model.pets.keys()];
    const id = ids[this.pick % ids.length];
    if (id === undefined) return;
    this.judge(model, id, await real.store.getPet(id), real);
  }

  /** Judges the answer to getPet of `id`, one of the run's pets (also when the log is replayed). */
  judge(model: StoreModel, id: bigint, response: StoreAnswer, real: StoreReal): void {
    this.fetched = id;
    const expected = model.pets.get(id);
    if (!expected) real.fail(`${this} asks for one of the run's pets`, `id ${id} is not one of them`);
    const pet = response.status === 200 ? toPetRecord(response.body) : undefined;
    if (!pet) real.fail(`${this} answers 200 with the pet created`, `status ${response.status} with ${briefText(response.text)}`);
    const diff = differences(expected, pet);
    if (diff) real.fail(`${this} answers the pet as created`, diff);
  }

  toString(): string {
    return this.fetched === undefined ? `getPet(one of ours, #${this.pick})` : `getPet(${this.fetched}n)`;
  }

  [fc.cloneMethod](): GetPetCommand {
    return new GetPetCommand(this.pick);
  }
}
