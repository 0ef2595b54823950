import { type ListQuery, type ListQuerySettings, type RawListQuery, interpretListQuery, isProblem, readListQuery } from './list-query.ts';
import { renderArray } from './pet-json.ts';
import { type ErrorReplyFactory, type Reply, jsonReply } from './replies.ts';
import type { PetStoreView, StoredPet } from './store.ts';

/** listPets' seams (see seams.ts). */
export interface ListPetsSeams {
  listQuery(query: ListQuery, raw: RawListQuery): ListQuery;
  listSource(pets: readonly StoredPet[]): readonly StoredPet[];
}

export interface ListPetsDeps {
  store: PetStoreView;
  seams: ListPetsSeams;
  errorReply: ErrorReplyFactory;
  query: ListQuerySettings;
  /** The pets of a list page, by their JSON: oldestFirst, or another order (a valid variant). */
  select?: SelectPets;
}

export type SelectPets = (pets: readonly StoredPet[], limit: number, status: string | undefined) => string[];

/** GET /pets: the first `limit` pets matching the filter, from the cached JSON of each pet. */
export function createListPets(deps: ListPetsDeps): (search: string) => Reply {
  const { store, seams, errorReply } = deps;
  const select = deps.select ?? oldestFirst;
  const page = lastPage();
  return (search) => {
    const raw = readListQuery(search);
    const { limit, status } = seams.listQuery(interpretListQuery(raw, deps.query), raw);
    if (isProblem(limit)) return errorReply(400, 'invalid_query', limit.problem);
    if (isProblem(status)) return errorReply(400, 'invalid_query', status.problem);
    const pets = seams.listSource(store.all());
    return jsonReply(
      200,
      page(pets, limit, status, () => renderArray(select(pets, limit, status))),
    );
  };
}

/**
 * The last page answered, given again while nothing it was built from changed: a client that polls one
 * list is answered without building the array and its text anew (most of a list's cost, and the garbage
 * it leaves). The store only appends, so the same source array at the same length holds the same pets;
 * a source rebuilt on every call (a fault's) never matches. One page: the memory it holds is bounded
 * whatever the queries.
 */
export function lastPage(): (pets: readonly StoredPet[], limit: number, status: string | undefined, build: () => string) => string {
  let last: { pets: readonly StoredPet[]; length: number; limit: number; status: string | undefined; text: string } | undefined;
  return (pets, limit, status, build) => {
    if (last && last.pets === pets && last.length === pets.length && last.limit === limit && last.status === status) return last.text;
    last = { pets, length: pets.length, limit, status, text: build() };
    return last.text;
  };
}

/** listPets in creation order: the first `limit` pets that match the filter. */
export function oldestFirst(pets: readonly StoredPet[], limit: number, status: string | undefined): string[] {
  const parts: string[] = [];
  for (let i = 0; i < pets.length && parts.length < limit; i++) collect(parts, pets[i], status);
  return parts;
}

/** A module function rather than a closure per request: under tsx every closure is also named at creation. */
function collect(parts: string[], pet: StoredPet | undefined, status: string | undefined): void {
  if (pet && (status === undefined || pet.status === status)) parts.push(pet.json);
}
