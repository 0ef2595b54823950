import { type PetRecord, describePet } from './pets.ts';

/** What this run of the commands has done to the store, as far as it can know. */
export interface StoreModel {
  /** Unique to this run: every pet the run creates is named `${tag} …`, so its pets are told apart
   * from other runs', other tests' and other people's. */
  readonly tag: string;
  /** The pets this run created, by id, in creation order. */
  readonly pets: Map<bigint, PetRecord>;
}

export function createStoreModel(tag: string): StoreModel {
  return { tag, pets: new Map() };
}

/** Whether a listed or fetched pet was created by this run (by its name's tag). */
export function isOurs(model: StoreModel, pet: PetRecord): boolean {
  return pet.name.startsWith(`${model.tag} `);
}

/** How a pet differs from the model's, or undefined when it is the same pet, exactly. */
export function differences(expected: PetRecord, actual: PetRecord): string | undefined {
  const diffs: string[] = [];
  if (actual.id !== expected.id) diffs.push(`id ${actual.id}`);
  if (actual.name !== expected.name) diffs.push(`name ${JSON.stringify(actual.name)}`);
  if (actual.categoryId !== expected.categoryId) diffs.push(`categoryId ${actual.categoryId}`);
  if (actual.status !== expected.status) diffs.push(`status ${actual.status ?? '(none)'}`);
  return diffs.length === 0 ? undefined : `${describePet(actual)} (differs in ${diffs.join(', ')})`;
}

/** A response body for a message: the text, cut. */
export function briefText(text: string): string {
  if (text === '') return 'an empty body';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
