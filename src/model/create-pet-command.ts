import fc from 'fast-check';
import { describePet, toPetRecord } from './pets.ts';
import { stringifyJson } from '../text/json.ts';
import type { SchemaValue } from '../arbitraries/index.ts';
import type { StoreAnswer, StoreReal } from './pet-store.ts';
import { type StoreModel, briefText, differences } from './store-model.ts';

export type NewPetBody = Readonly<Record<string, SchemaValue>>;

/**
 * createPet of a valid NewPet → 201 with a new id and the pet as sent. Its `name` holds the generated
 * part only; the run's tag is put in front when it runs, so each run's pets are its own.
 */
export class CreatePetCommand implements fc.AsyncCommand<StoreModel, StoreReal> {
  /** The body as sent and the id assigned, once run: toString shows what really happened. */
  private sent: NewPetBody | undefined;
  private assigned: bigint | undefined;

  constructor(readonly fields: NewPetBody) {}

  check(): boolean {
    return true;
  }

  async run(model: StoreModel, real: StoreReal): Promise<void> {
    const body: NewPetBody = { ...this.fields, name: `${model.tag}${String(this.fields.name)}` };
    this.sent = body;
    this.judge(model, body, await real.store.createPet(body), real);
  }

  /** Judges the answer to `body` as sent, and adds the pet to the model (also when the log is replayed). */
  judge(model: StoreModel, body: NewPetBody, response: StoreAnswer, real: StoreReal): void {
    this.sent = body;
    const pet = response.status === 201 ? toPetRecord(response.body) : undefined;
    if (!pet) real.fail(`${this} answers 201 with the Pet`, `status ${response.status} with ${briefText(response.text)}`);
    this.assigned = pet.id;
    const sentStatus = typeof body.status === 'string' ? body.status : undefined;
    // With no status sent, the server may set any (the interface states no default): the model keeps its choice.
    const expected = { id: pet.id, name: String(body.name), categoryId: body.categoryId as bigint, status: sentStatus ?? pet.status };
    const diff = differences(expected, pet);
    if (diff) real.fail(`${this} answers the pet as sent`, `201 with ${diff}`);
    const earlier = model.pets.get(pet.id);
    if (earlier) real.fail(`${this} assigns a new id`, `id ${pet.id}, already assigned to ${describePet(earlier)}: that write is lost`);
    model.pets.set(pet.id, expected);
  }

  toString(): string {
    const body = this.sent ?? { ...this.fields, name: `<run tag>${String(this.fields.name)}` };
    const status = body.status === undefined ? '' : `, status: ${JSON.stringify(body.status)}`;
    const result = this.assigned === undefined ? '' : ` → id ${this.assigned}n`;
    return `createPet({name: ${JSON.stringify(body.name)}, categoryId: ${stringifyJson(body.categoryId)}n${status}})${result}`;
  }

  [fc.cloneMethod](): CreatePetCommand {
    return new CreatePetCommand(this.fields);
  }
}
