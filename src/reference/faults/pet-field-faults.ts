import { defineFault } from './hooks.ts';
import { replaceWithError } from './reply-edits.ts';
import { PET_STATUSES, isRecord, newPetFrom } from './field-and-rate-edits.ts';

/**
 * createPet's validation as real servers get it wrong: a validator that coerces types, checks that
 * were never written, falsy tests, type checks that stop at the JSON type, content-type checks that are
 * too strict or absent.
 */

/** Ajv's coerceTypes for a string field. */
function coerceString(value: unknown): unknown {
  if (value === null) return '';
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

/** Ajv's coerceTypes for an integer field. */
function coerceInteger(value: unknown): unknown {
  if (value === null || value === false) return 0;
  if (value === true) return 1;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) {
    const big = BigInt(value.trim());
    return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  return value;
}

const NULL_BODY_CRASH = 'ind-val-null-body-crash';
const INT32_MAX = 2n ** 31n - 1n;
const INT32_MIN = -(2n ** 31n);

export const INDEPENDENT_VALIDATION_FAULTS = [
  defineFault({
    name: 'ind-val-type-coercion',
    group: 'validation',
    description: 'The validator coerces types (Ajv coerceTypes): categoryId "42" becomes 42, name false becomes "false", null becomes "" or 0.',
    detectedBy: ['STA-006'],
    hooks: () => ({
      acceptInvalid: (accepted, body) =>
        accepted ?? (isRecord(body) ? newPetFrom(coerceString(body.name), coerceInteger(body.categoryId), body.status) : undefined),
    }),
  }),
  defineFault({
    name: 'ind-val-status-unchecked',
    group: 'validation',
    description: 'status is checked to be a string but never against PetStatus: "adopted" is stored and echoed.',
    detectedBy: ['STA-006', 'SCH-002'],
    hooks: () => ({
      acceptInvalid: (accepted, body) => {
        if (accepted || !isRecord(body) || typeof body.status !== 'string') return accepted;
        const pet = newPetFrom(body.name, body.categoryId, undefined);
        return pet ? { ...pet, status: body.status } : undefined;
      },
    }),
  }),
  defineFault({
    name: 'ind-val-name-defaults-empty',
    group: 'validation',
    description: 'name is declared with a default of "" (name: str = ""): a body without name is stored with an empty name.',
    detectedBy: ['STA-005'],
    hooks: () => ({
      acceptInvalid: (accepted, body) => accepted ?? (isRecord(body) && body.name === undefined ? newPetFrom('', body.categoryId, body.status) : undefined),
    }),
  }),
  defineFault({
    name: 'ind-val-float-category-truncated',
    group: 'validation',
    description: 'categoryId goes through parseInt/Math.trunc: 1.5 is stored as 1 instead of refused.',
    detectedBy: ['STA-006'],
    hooks: () => ({
      acceptInvalid: (accepted, body) => {
        if (accepted || !isRecord(body) || typeof body.categoryId !== 'number' || !Number.isFinite(body.categoryId)) return accepted;
        return newPetFrom(body.name, Math.trunc(body.categoryId), body.status);
      },
    }),
  }),
  defineFault({
    name: 'ind-val-category-unbounded',
    group: 'validation',
    description: 'categoryId is an unbounded integer (a Python int): 2^63 and beyond are accepted and stored.',
    detectedBy: ['INT-002'],
    hooks: () => ({
      acceptInvalid: (accepted, body) => {
        if (accepted || !isRecord(body) || typeof body.categoryId !== 'bigint' || typeof body.name !== 'string') return accepted;
        const status = body.status;
        if (status === undefined) return { name: body.name, categoryId: body.categoryId };
        return typeof status === 'string' && PET_STATUSES.includes(status) ? { name: body.name, categoryId: body.categoryId, status } : undefined;
      },
    }),
  }),
  defineFault({
    name: 'ind-val-category-int32-clamped',
    group: 'validation',
    description: 'categoryId is an INT column in a database in non-strict mode: values outside 32 bits are stored clamped to ±2147483647/-2147483648.',
    detectedBy: ['INT-001', 'SCH-005'],
    hooks: () => ({
      newPet: (pet) => {
        const id = BigInt(pet.categoryId);
        const clamped = id > INT32_MAX ? INT32_MAX : id < INT32_MIN ? INT32_MIN : id;
        return clamped === id ? pet : { ...pet, categoryId: Number(clamped) };
      },
    }),
  }),
  defineFault({
    name: 'ind-val-category-double',
    group: 'validation',
    description: 'The body is read with JSON.parse: a categoryId beyond 2^53 is stored rounded to the nearest double.',
    detectedBy: ['INT-001', 'SCH-005'],
    hooks: () => ({ newPet: (pet) => ({ ...pet, categoryId: Number(pet.categoryId) }) }),
  }),
  defineFault({
    name: 'ind-val-null-body-crash',
    group: 'validation',
    description: 'A body that is the JSON literal null crashes the handler (reading body.name of null): 500.',
    detectedBy: ['STA-007', 'STA-008'],
    hooks: () => ({
      newPetOutcome: (outcome, body) => (body.toString('utf8').trim() === 'null' ? { kind: 'invalid_body', message: NULL_BODY_CRASH } : outcome),
      reply: (reply, context) =>
        reply.error?.message === NULL_BODY_CRASH
          ? replaceWithError(reply, context, 500, 'internal_error', "TypeError: Cannot read properties of null (reading 'name')")
          : reply,
    }),
  }),
  defineFault({
    name: 'ind-val-any-content-type',
    group: 'validation',
    description: 'The body parser is configured with type "*/*": a JSON body sent as text/plain is parsed and stored.',
    detectedBy: ['STA-011'],
    strictOnly: true,
    hooks: () => ({ acceptMediaType: () => true }),
  }),
  defineFault({
    name: 'ind-val-charset-refused',
    group: 'validation',
    description: 'Content-Type is compared with === "application/json": "application/json; charset=utf-8" gets 415.',
    detectedBy: ['STA-001', 'SCH-006'],
    hooks: () => ({ acceptMediaType: (accepted, contentType) => accepted && contentType?.trim().toLowerCase() === 'application/json' }),
  }),
  defineFault({
    name: 'ind-val-name-trimmed',
    group: 'validation',
    description: 'The name field trims whitespace (a serializer default): " Rex " is stored and echoed as "Rex".',
    detectedBy: ['SCH-005', 'CON-001'],
    hooks: () => ({ newPet: (pet) => ({ ...pet, name: pet.name.trim() }) }),
  }),
  defineFault({
    name: 'ind-val-name-latin1',
    group: 'validation',
    description: 'The body is decoded as latin1: any non-ASCII name comes back as mojibake ("Zoë" as "ZoÃ«").',
    detectedBy: ['SCH-005', 'CON-001'],
    hooks: () => ({ newPet: (pet) => ({ ...pet, name: Buffer.from(pet.name, 'utf8').toString('latin1') }) }),
  }),
  defineFault({
    name: 'ind-val-name-truncated',
    group: 'validation',
    description: 'name is a VARCHAR(50) in a database that truncates silently: longer names are accepted and cut to 50 characters.',
    detectedBy: ['SCH-005'],
    hooks: () => ({ newPet: (pet) => ({ ...pet, name: pet.name.slice(0, 50) }) }),
  }),
] as const;
