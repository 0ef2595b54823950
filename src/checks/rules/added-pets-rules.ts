import { toBigInt } from '../../text/json.ts';
import { queryParam } from './log-anchors.ts';
import { type JudgmentRule, arrayBody, describeBody, fails, holds, isObject, isPetShaped } from './rule-kit.ts';

/**
 * A create answered less than this before a list was asked for may, by the clocks' millisecond steps,
 * have been answered after it: such a pet is not held to the list (a valid server may be mid-write).
 */
const CLOCK_STEP_MS = 1;

/**
 * CON-003's second half, as a rule: no animal the run added is missing from a complete list. The pets
 * are every createPet the run's key sent that was answered 201 with a Pet before the list was asked
 * for, in any file: when re-judging, read from the log's entries (the whole run's creates); when the
 * test runs, from the ledger the workers share, which holds the same creates as they are answered.
 */
export const ADDED_PETS_RULES: readonly JudgmentRule[] = [
  {
    name: 'added-pets-listed',
    readsBody: true,
    readsRunCreates: true,
    judge(e, _params, _contract, lookup) {
      const limit = Number(queryParam(e, 'limit'));
      const status = queryParam(e, 'status');
      const what = status === undefined ? 'animals stored without a status' : `${status} animals`;
      const list = arrayBody(e);
      if (e.operationId !== 'listPets' || e.status !== 200 || !list)
        return fails(`a list of ${what}`, `${e.operationId ?? 'a request'} answered ${e.status} with ${describeBody(e)}`);
      if (!Number.isInteger(limit) || list.length >= limit)
        return fails(`a complete list (fewer items than its limit)`, `${list.length} items, limit=${limit}`);
      const added = lookup.addedPets?.();
      if (!added) return fails('the pets the run added', 'none to read');
      const unreadable = added.unreadable.find(
        (create) => create.answeredAt < e.startedAt && (create.origin === undefined || create.origin === originOf(e.url)),
      );
      if (unreadable) return fails(`the Pet of each create the run's key sent before the list`, `the log does not keep #${unreadable.seq} whole`);
      const origin = originOf(e.url);
      const due = added.pets.filter(
        (pet) => pet.status === status && pet.answeredAt + CLOCK_STEP_MS < e.startedAt && (pet.origin === undefined || pet.origin === origin),
      );
      const listed = new Set(list.filter(isPetShaped).map((item) => toBigInt(item.id)));
      const missing = due.filter((pet) => !listed.has(pet.id));
      const expected = `the complete list of ${list.length} ${what} holds each of the ${due.length} the run added before it was asked for`;
      if (missing.length === 0) return holds(expected);
      const shown = missing.slice(0, 5).map((pet) => String(pet.id));
      return fails(expected, `${missing.length} of them missing (createPet acknowledged each): id ${shown.join(', ')}${missing.length > 5 ? ', …' : ''}`);
    },
  },
];

/** The pet a createPet answer introduced, as the ledger and the rule read it: a Pet's id and its status, if a string. */
export function answeredPet(body: unknown): { id: bigint; status: string | undefined } | undefined {
  if (!isPetShaped(body)) return undefined;
  const id = toBigInt(body.id);
  if (id === undefined) return undefined;
  return { id, status: isObject(body) && typeof body.status === 'string' ? body.status : undefined };
}

/** The scheme, host and port a URL names (the store it reaches), or the URL itself when it is not one. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
