import type { Reply } from '../replies.ts';
import { type OutsideFault, instead } from './outside-fault.ts';

/** Status codes, Error bodies, the path parameter and deprecation (outside-fault-list.md 11, 13–15, 24). */

/** The reference's message for a petId that is not an int64 ends with the id as given, quoted. */
const DIGITS_GIVEN = /got "-?\d+"$/;
/** 5 December 2030 written 05/12/2030 and read month first. */
const SWAPPED_SUNSET = new Date(Date.UTC(2030, 4, 12)).toUTCString();

function withoutError(reply: Reply): Reply {
  const { error: _error, ...rest } = reply;
  return rest;
}

export const OUTSIDE_RESPONSE_FAULTS = [
  {
    name: 'out-petid-overflow-500',
    area: 'int64',
    description: 'a petId of digits beyond int64 overflows the id parser: 500',
    hooks: {
      reply: (reply, context) =>
        context.operation === 'getPet' && reply.error?.kind === 'invalid_pet_id' && DIGITS_GIVEN.test(reply.error.message)
          ? instead(reply, context.errorReply(500, 'internal_error', 'RangeError: the id does not fit in 64 bits'))
          : reply,
    },
  },
  {
    name: 'out-create-200',
    area: 'status codes',
    description: 'createPet answers 200 instead of 201',
    hooks: { reply: (reply, context) => (context.operation === 'createPet' && reply.status === 201 ? { ...reply, status: 200 } : reply) },
  },
  {
    name: 'out-missing-pet-200-null',
    area: 'status codes',
    description: 'getPet for an id with no animal answers 200 with the body null',
    hooks: {
      reply: (reply, context) =>
        context.operation === 'getPet' && reply.status === 404 && reply.error?.kind === 'not_found'
          ? { ...withoutError(reply), status: 200, body: 'null' }
          : reply,
    },
  },
  {
    name: 'out-error-status-string',
    area: 'error body',
    description: "the Error body's status is a string",
    hooks: {
      reply: (reply) =>
        reply.error && reply.body !== undefined
          ? { ...reply, body: JSON.stringify({ code: reply.error.code, message: reply.error.message, status: String(reply.status) }) }
          : reply,
    },
  },
  {
    name: 'out-sunset-day-month-swapped',
    area: 'deprecation',
    description: "getPet's Sunset header announces 12 May 2030 instead of 5 December 2030",
    hooks: {
      reply: (reply, context) =>
        context.operation === 'getPet' && reply.headers?.sunset ? { ...reply, headers: { ...reply.headers, sunset: SWAPPED_SUNSET } } : reply,
    },
  },
] as const satisfies readonly OutsideFault[];
