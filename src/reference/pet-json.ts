import { wholeText } from './flat-text.ts';

/**
 * A pet's JSON is rendered once, when it is stored, and every answer reuses the text. Writing the text
 * by hand keeps int64 values exact (bigint has no JSON.stringify).
 */

/** The fields of a pet as they are about to be stored. */
export interface PetFields {
  readonly id: bigint;
  readonly name: string;
  readonly categoryId: bigint | number;
  readonly status?: string;
}

/** Renders a pet stored at `now` (epoch ms). */
export type RenderPet = (pet: PetFields, now: number) => string;

/**
 * The pet's JSON as the interface shows it: id, name, categoryId and, when it has one, status. Made whole
 * once (wholeText): every list answer copies the stored text at once, where a text left in pieces would
 * be walked again by each answer. A template made whole costs about half what an array join does.
 */
export function renderPet(pet: PetFields): string {
  const status = pet.status === undefined ? '' : `,"status":${JSON.stringify(pet.status)}`;
  return wholeText(`{"id":${pet.id},"name":${JSON.stringify(pet.name)},"categoryId":${pet.categoryId}${status}}`);
}

/** A JSON array from rendered elements, without re-serialising them. */
export function renderArray(elements: readonly string[]): string {
  return `[${elements.join(',')}]`;
}
