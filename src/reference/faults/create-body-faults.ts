import type { NewPetOutcome } from '../new-pet.ts';
import { type OutsideFault, STATUSES, bodyObject, instead, isInt64 } from './outside-fault.ts';

/** What createPet accepts, and how it reads numbers (outside-fault-list.md 6, 7, 10, 12). */

const INTEGER_TEXT = /^-?\d{1,19}$/;
/** The message a NewPet with an undefined field carries from the reader to the reply (see out-unknown-field-500). */
const UNDEFINED_FIELD = 'outside-fault: a field the storage layer has no column for';
const DEFINED = new Set(['name', 'categoryId', 'status']);

/** A refused body accepted anyway when `lenient` says its fields are what the fault lets through. */
function acceptRefused(lenient: (fields: Record<string, unknown>) => NewPetOutcome | undefined) {
  return (outcome: NewPetOutcome, body: Buffer): NewPetOutcome => {
    if (!('kind' in outcome) || outcome.kind !== 'invalid_body') return outcome;
    const fields = bodyObject(body);
    return (fields && lenient(fields)) ?? outcome;
  };
}

function validStatus(status: unknown): boolean {
  return status === undefined || (typeof status === 'string' && STATUSES.includes(status));
}

export const OUTSIDE_NEW_PET_FAULTS = [
  {
    name: 'out-create-status-any-string',
    area: 'enumerations',
    description: 'createPet stores any string as status',
    hooks: {
      newPetOutcome: acceptRefused(({ name, categoryId, status }) =>
        typeof name === 'string' && isInt64(categoryId) && typeof status === 'string' ? { pet: { name, categoryId, status } } : undefined,
      ),
    },
  },
  {
    name: 'out-categoryid-numeric-string',
    area: 'types',
    description: 'createPet coerces a categoryId written as a string of digits',
    hooks: {
      newPetOutcome: acceptRefused(({ name, categoryId, status }) => {
        if (typeof name !== 'string' || typeof categoryId !== 'string' || !INTEGER_TEXT.test(categoryId) || !validStatus(status)) return undefined;
        const id = BigInt(categoryId);
        if (!isInt64(id)) return undefined;
        return { pet: status === undefined ? { name, categoryId: id } : { name, categoryId: id, status: status as string } };
      }),
    },
  },
  {
    name: 'out-categoryid-double-rounding',
    area: 'int64',
    description: 'the body is parsed with doubles: a categoryId above 2^53 is stored rounded',
    hooks: { exactNumbers: () => false },
  },
  {
    name: 'out-unknown-field-500',
    area: 'unknown fields',
    description: 'a NewPet field the interface does not define makes the storage layer fail: 500',
    hooks: {
      newPetOutcome: (outcome, body) => {
        if (!('pet' in outcome)) return outcome;
        const fields = bodyObject(body);
        const undefinedField = fields && Object.keys(fields).some((key) => !DEFINED.has(key));
        return undefinedField ? { kind: 'invalid_body', message: UNDEFINED_FIELD } : outcome;
      },
      reply: (reply, context) =>
        reply.error?.message === UNDEFINED_FIELD
          ? instead(reply, context.errorReply(500, 'internal_error', 'SQLITE_ERROR: table pets has no column for a field of the body'))
          : reply,
    },
  },
] as const satisfies readonly OutsideFault[];
