import { DEFAULT_LIMIT, MAX_LIMIT, type ReadLimit, type ReadStatus, isProblem, strictLimit } from './list-query.ts';
import type { NewPetOutcome } from './new-pet.ts';
import { parseJson } from '../text/json.ts';
import type { ErrorReplyFactory, OperationId, Reply } from './replies.ts';
import type { StoredPet } from './store.ts';

/*
 * The other choices a valid server may make where the interface is silent, each selected by an option
 * of startReferenceServer (the variants in variants.ts name them). The correct server's own choice lives
 * in the core; these are the alternatives, kept apart so that the core has no branch only a variant
 * takes. The valid-variant proof runs the suite against each and expects CONFORMANT.
 */

/** An out-of-range or non-integer limit clamped to 1..100; one that is no number at all reads as the default. */
export const clampedLimit: ReadLimit = (raw) => {
  const text = raw.limit;
  if (text === undefined || !/^[+-]?\d+(?:\.\d*)?$/.test(text)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.trunc(Number(text))));
};

/** A limit that is not an integer from 1 to 100 read as absent: the default page. */
export const defaultedLimit: ReadLimit = (raw) => {
  const read = strictLimit(raw);
  return isProblem(read) ? DEFAULT_LIMIT : read;
};

/** How a limit outside 1..100 is read: refused (the core's reading), clamped, or as absent. */
export function limitReader(choice: 'reject' | 'clamp' | 'default'): ReadLimit {
  return { reject: strictLimit, clamp: clampedLimit, default: defaultedLimit }[choice];
}

/** A status filter outside PetStatus kept as given: it matches no pet, so the list is empty. */
export const lenientStatus: ReadStatus = (raw) => raw.status;

/** listPets newest first. */
export function newestFirst(pets: readonly StoredPet[], limit: number, status: string | undefined): string[] {
  const parts: string[] = [];
  for (let i = pets.length - 1; i >= 0 && parts.length < limit; i--) {
    const pet = pets[i]!;
    if (status === undefined || pet.status === status) parts.push(pet.json);
  }
  return parts;
}

/**
 * A 429 whose JSON body is not the Error body: the interface does not show the 429's shape, but every
 * response is JSON ("All requests and responses use JSON"), so only the shape is the server's to choose.
 */
export function bareRateLimited(): Reply {
  return { status: 429, body: '{"message":"Too Many Requests"}' };
}

/** What createPet makes of a body, as a liberty changes it (the createPet seam's signature). */
export type NewPetLiberty = (outcome: NewPetOutcome, body: Buffer) => NewPetOutcome;

/** A categoryId written with an exponent or a fraction (1e3, 1000.0): refused, not read as the integer. */
export function refuseNumberForms(outcome: NewPetOutcome, body: Buffer): NewPetOutcome {
  if (!('pet' in outcome) || !/"categoryId"\s*:\s*-?\d+(?:\.\d*)?[eE.]/.test(body.toString('utf8'))) return outcome;
  return { kind: 'invalid_body', message: 'categoryId must be written as an integer (digits only)' };
}

/** Rules a valid server may add to NewPet: a bounded name, a closed set of categories. */
export interface NewPetRestrictions {
  nameLength?: { min: number; max: number };
  categoryIds?: ReadonlySet<string>;
}

/** Refuses an accepted NewPet that breaks the restrictions; undefined when there are none. */
export function restrictNewPets(rules: NewPetRestrictions): NewPetLiberty | undefined {
  const { nameLength, categoryIds } = rules;
  if (!nameLength && !categoryIds) return undefined;
  return (outcome) => {
    if (!('pet' in outcome)) return outcome;
    const { name, categoryId } = outcome.pet;
    if (nameLength) {
      const length = [...name].length;
      if (length < nameLength.min || length > nameLength.max) {
        return { kind: 'invalid_body', message: `name must be ${nameLength.min} to ${nameLength.max} characters long, got ${length}` };
      }
    }
    if (categoryIds && !categoryIds.has(String(categoryId))) return { kind: 'invalid_body', message: `categoryId ${categoryId} is not a known category` };
    return outcome;
  };
}

/** The fields of NewPet; a valid server may refuse any other (the interface does not say). */
const NEW_PET_FIELDS: ReadonlySet<string> = new Set(['name', 'categoryId', 'status']);

/** A NewPet with a field the interface does not define: refused with 400, as a closed schema would. */
export function refuseUndefinedFields(outcome: NewPetOutcome, body: Buffer): NewPetOutcome {
  if (!('pet' in outcome)) return outcome;
  const value = parseJson(body.toString('utf8')) as Record<string, unknown>;
  const extra = Object.keys(value).filter((field) => !NEW_PET_FIELDS.has(field));
  return extra.length === 0 ? outcome : { kind: 'invalid_body', message: `NewPet has no field ${extra.map((f) => JSON.stringify(f)).join(', ')}` };
}

/** The query parameters each read operation defines; a valid server may refuse any other. */
const DEFINED_PARAMETERS: Readonly<Partial<Record<OperationId, ReadonlySet<string>>>> = {
  listPets: new Set(['limit', 'status']),
  getPet: new Set(),
};

/**
 * listPets or getPet with a query parameter the interface does not define: refused with 400 (what a
 * schema-validating framework does with additionalProperties false). Authentication and the rate limit
 * still come first: their 401 and 429 stand.
 */
export function refuseUndefinedParameters(reply: Reply, operation: OperationId | undefined, search: string, errorReply: ErrorReplyFactory): Reply {
  const defined = operation === undefined ? undefined : DEFINED_PARAMETERS[operation];
  if (defined === undefined || reply.status === 401 || reply.status === 429 || search === '') return reply;
  const extra = [...new URLSearchParams(search).keys()].filter((name) => !defined.has(name));
  if (extra.length === 0) return reply;
  const refusal = errorReply(400, 'bad_request', `unknown query parameter ${JSON.stringify(extra[0]!.slice(0, 40))}`, reply.headers);
  if (reply.rate) refusal.rate = reply.rate;
  return refusal;
}
