import { type NewPetLiberty, refuseNumberForms, refuseUndefinedFields, refuseUndefinedParameters, restrictNewPets } from './liberties.ts';
import type { ReferenceOptions } from './reference-options.ts';
import type { Seams } from './seams.ts';

/*
 * The liberties of the valid variants, put in front of the seams: a fault then sees what a valid server
 * taking that liberty would answer, never the other way round.
 */

/**
 * The NewPets a valid variant refuses besides the correct server's refusals (bounded names, known
 * categories, integers written 1e3): applied before any fault sees the outcome.
 */
export function withNewPetLiberties(seams: Seams, options: ReferenceOptions): Seams {
  const restrict = restrictNewPets({
    ...(options.categoryIds ? { categoryIds: new Set(options.categoryIds.map(String)) } : {}),
    ...(options.nameLength ? { nameLength: options.nameLength } : {}),
  });
  const liberties = [
    restrict,
    options.numberForms === 'refuse' ? refuseNumberForms : undefined,
    options.undefinedNewPetFields === 'refuse' ? refuseUndefinedFields : undefined,
  ].filter((l): l is NewPetLiberty => l !== undefined);
  if (liberties.length === 0) return seams;
  const { newPetOutcome } = seams;
  return {
    ...seams,
    newPetOutcome: (outcome, body) =>
      newPetOutcome(
        liberties.reduce((current, liberty) => liberty(current, body), outcome),
        body,
      ),
  };
}

/** Query parameters a valid variant refuses (400) before any fault sees the reply. */
export function withQueryLiberty(seams: Seams, options: ReferenceOptions): Seams {
  if (options.undefinedQueryParameters !== 'refuse') return seams;
  const { reply } = seams;
  return {
    ...seams,
    reply: (value, operation, method, search, now, errorReply) =>
      reply(refuseUndefinedParameters(value, operation, search, errorReply), operation, method, search, now, errorReply),
  };
}
