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
 * The pet's JSON as the interface shows it: id, name, categoryId and, when it has one, status. Joined
 * rather than concatenated: a joined string is one flat piece, which every list answer copies at once,
 * where a concatenated one stays a tree of pieces each answer walks again.
 */
export function renderPet(pet: PetFields): string {
  const parts = ['{"id":', String(pet.id), ',"name":', JSON.stringify(pet.name), ',"categoryId":', String(pet.categoryId)];
  if (pet.status !== undefined) parts.push(',"status":', JSON.stringify(pet.status));
  parts.push('}');
  return parts.join('');
}

/** A JSON array from rendered elements, without re-serialising them. */
export function renderArray(elements: readonly string[]): string {
  return `[${elements.join(',')}]`;
}
