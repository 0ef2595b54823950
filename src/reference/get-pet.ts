import { INT64_MAX, INT64_MIN } from '../text/json.ts';
import { isPastSunset } from './deprecation.ts';
import { type ErrorReplyFactory, type Reply, jsonReply } from './replies.ts';
import type { PetStoreView, StoredPet } from './store.ts';

/** getPet's seams (see seams.ts). */
export interface GetPetSeams {
  petId(id: bigint | undefined, raw: string): bigint | undefined;
  findPet(pet: StoredPet | undefined, store: PetStoreView): StoredPet | undefined;
}

export interface GetPetDeps {
  store: PetStoreView;
  seams: GetPetSeams;
  errorReply: ErrorReplyFactory;
  /** What a petId that is not an int64 gets: 400, or 404 (a valid variant). */
  invalidPetIdStatus: 400 | 404;
}

const INTEGER = /^-?\d+$/;
// Longer than any int64 even with a few leading zeros: refuse before building a huge bigint.
const MAX_ID_LENGTH = 64;

/** GET /pets/{petId} (deprecated; gone after the sunset). */
export function createGetPet(deps: GetPetDeps): (rawId: string, now: number) => Reply {
  const { store, seams, errorReply, invalidPetIdStatus } = deps;
  return (rawId, now) => {
    if (isPastSunset(now)) {
      return errorReply(410, 'gone', 'getPet was removed on 5 December 2030; use GET /pets with the status filter');
    }
    const id = seams.petId(parsePetId(rawId), rawId);
    if (id === undefined) {
      const shown = JSON.stringify(rawId.slice(0, 40));
      return invalidPetIdStatus === 400
        ? errorReply(400, 'invalid_pet_id', `petId must be an int64 integer, got ${shown}`)
        : errorReply(404, 'not_found', `no animal with id ${shown}`);
    }
    const pet = seams.findPet(store.get(id), store);
    if (!pet) return errorReply(404, 'not_found', `no animal with id ${id}`);
    return jsonReply(200, pet.json);
  };
}

/** The int64 a path segment names (percent-decoded), or undefined. */
export function parsePetId(raw: string): bigint | undefined {
  let text = raw;
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return undefined;
    }
  }
  if (text.length > MAX_ID_LENGTH || !INTEGER.test(text)) return undefined;
  const id = BigInt(text);
  return id >= INT64_MIN && id <= INT64_MAX ? id : undefined;
}
