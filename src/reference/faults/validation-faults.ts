import type { ValidationIssue } from '../../contract/index.ts';
import { INT64_MAX, INT64_MIN } from '../../text/json.ts';
import type { NewPetRecord } from '../store.ts';
import { refuseNumberForms } from '../liberties.ts';
import { defineFault } from './hooks.ts';
import type { NewPetOutcome } from '../new-pet.ts';
import { isInt64, PET_STATUSES } from './field-and-rate-edits.ts';
import { bodyObject, instead, type OutsideFault } from './outside-fault.ts';

const INTEGER_TEXT = /^-?\d+$/;

interface LooseBody {
  name?: unknown;
  categoryId?: unknown;
  status?: unknown;
}

/** createPet bodies that a correct server refuses with 400 but these faults let through. */
export const VALIDATION_FAULTS = [
  defineFault({
    name: 'integer-forms-refused',
    group: 'validation',
    description: 'A categoryId written with an exponent or a zero fraction (1e3, 1000.0) is refused with 400, though JSON Schema counts it as an integer.',
    detectedBy: ['INT-005'],
    strictOnly: true,
    hooks: () => ({ newPetOutcome: refuseNumberForms }),
  }),
  defineFault({
    name: 'missing-name-accepted',
    group: 'validation',
    description: 'A body without name is accepted; the pet gets an empty name.',
    detectedBy: ['STA-005'],
    hooks: () => ({
      acceptInvalid: (accepted, body, issues) => {
        const onlyNameMissing = onlyAbout(issues, (i) => i.keyword === 'required' && i.message.includes("'name'"));
        return accepted ?? (onlyNameMissing ? repaired(body, { name: '' }) : undefined);
      },
    }),
  }),
  defineFault({
    name: 'categoryid-numeric-string-accepted',
    group: 'validation',
    description: 'A categoryId sent as a numeric string ("42") is accepted and stored as the number.',
    detectedBy: ['STA-006'],
    hooks: () => ({
      acceptInvalid: (accepted, body, issues) => {
        const value = (body as LooseBody | null)?.categoryId;
        if (accepted || !onlyAt(issues, '/categoryId') || typeof value !== 'string' || !INTEGER_TEXT.test(value)) return accepted;
        const categoryId = BigInt(value);
        return categoryId >= INT64_MIN && categoryId <= INT64_MAX ? repaired(body, { categoryId }) : undefined;
      },
    }),
  }),
  defineFault({
    name: 'status-not-validated',
    group: 'validation',
    description: 'Any string is accepted as status on creation and echoed back.',
    detectedBy: ['STA-006', 'SCH-002'],
    hooks: () => ({
      acceptInvalid: (accepted, body, issues) => {
        const onlyStatusWrong = onlyAt(issues, '/status') && typeof (body as LooseBody).status === 'string';
        return accepted ?? (onlyStatusWrong ? repaired(body, {}) : undefined);
      },
    }),
  }),
  defineFault({
    name: 'categoryid-overflow-wrapped',
    group: 'validation',
    description: 'A categoryId beyond int64 (2^63) is accepted and wrapped to 64 bits instead of refused.',
    detectedBy: ['INT-002'],
    hooks: () => ({
      acceptInvalid: (accepted, body, issues) => {
        const value = (body as LooseBody | null)?.categoryId;
        if (accepted || !onlyAt(issues, '/categoryId') || typeof value !== 'bigint') return accepted;
        return repaired(body, { categoryId: BigInt.asIntN(64, value) });
      },
    }),
  }),
] as const;

function onlyAt(issues: readonly ValidationIssue[], path: string): boolean {
  return onlyAbout(issues, (issue) => issue.instancePath === path);
}

function onlyAbout(issues: readonly ValidationIssue[], predicate: (issue: ValidationIssue) => boolean): boolean {
  return issues.length > 0 && issues.every(predicate);
}

/** The body's fields with the given repairs, provided the rest is usable. */
function repaired(body: unknown, repairs: Partial<NewPetRecord>): NewPetRecord | undefined {
  const fields = { ...(body as LooseBody), ...repairs };
  const { name, categoryId, status } = fields;
  if (typeof name !== 'string' || (typeof categoryId !== 'bigint' && typeof categoryId !== 'number')) return undefined;
  if (status !== undefined && typeof status !== 'string') return undefined;
  return status === undefined ? { name, categoryId } : { name, categoryId, status };
}

/** What createPet accepts, and how it reads numbers (outside-fault-list.md 6, 7, 10, 12). */

const INT64_TEXT = /^-?\d{1,19}$/;
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
  return status === undefined || (typeof status === 'string' && PET_STATUSES.includes(status));
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
        if (typeof name !== 'string' || typeof categoryId !== 'string' || !INT64_TEXT.test(categoryId) || !validStatus(status)) return undefined;
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
