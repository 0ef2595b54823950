import { defineFault } from './hooks.ts';
import { replaceWithError, setHeaders, withStatus } from './reply-edits.ts';
import type { Reply } from '../replies.ts';
import { instead, type OutsideFault } from './outside-fault.ts';

const NON_ASCII = /[\u0080-\uffff]/;
const NOT_DIGITS = /[^\d]/;
const LEADING_INTEGER = /^(-?\d+)\D/;

/** Wrong status codes, 5xx on odd input, and the headers and paths that go with status. */
export const STATUS_FAULTS = [
  defineFault({
    name: 'percent-encoded-id-refused',
    group: 'status',
    description: 'getPet does not decode a percent-encoded petId: /pets/%31%32 is an invalid id, not pet 12.',
    detectedBy: ['STA-016'],
    advisoryOnly: true,
    hooks: () => ({ petId: (id, raw) => (raw.includes('%') ? undefined : id) }),
  }),
  defineFault({
    name: 'absolute-form-not-found',
    group: 'status',
    description: 'A request target in absolute-form (GET http://host/v1/pets) is not routed: 404, as a router that matches the raw URL answers.',
    detectedBy: ['STA-017'],
    advisoryOnly: true,
    hooks: () => ({ target: (target, url) => (url?.startsWith('/') === false ? { path: url, search: '' } : target) }),
  }),
  defineFault({
    name: 'allow-missing-on-405',
    group: 'status',
    description: 'A 405 (another method on /pets or /pets/{petId}) carries no Allow header.',
    detectedBy: ['STA-015'],
    advisoryOnly: true,
    hooks: () => ({ reply: (reply) => (reply.status === 405 ? setHeaders(reply, { allow: undefined }) : reply) }),
  }),
  defineFault({
    name: 'create-returns-200',
    group: 'status',
    description: 'createPet answers 200 instead of 201.',
    detectedBy: ['STA-001', 'STA-009', 'SCH-002'],
    hooks: () => ({
      reply: (reply, context) => (context.operation === 'createPet' && reply.status === 201 ? { ...reply, status: 200 } : reply),
    }),
  }),
  defineFault({
    name: 'unknown-pet-200-null',
    group: 'status',
    description: 'getPet answers 200 with a null body for an unknown petId instead of 404.',
    detectedBy: ['STA-004', 'SCH-003'],
    hooks: () => ({
      reply: (reply, context) => {
        if (context.operation !== 'getPet' || reply.status !== 404) return reply;
        const { error: _error, ...rest } = reply;
        return { ...rest, status: 200, body: 'null' };
      },
    }),
  }),
  defineFault({
    name: 'invalid-body-422',
    group: 'status',
    description: 'createPet answers 422 instead of 400 when the body fails validation.',
    detectedBy: ['STA-005', 'STA-006', 'STA-007', 'STA-009'],
    hooks: () => ({ reply: (reply) => (reply.error?.kind === 'invalid_body' ? withStatus(reply, 422) : reply) }),
  }),
  defineFault({
    name: 'malformed-json-500',
    group: 'status',
    description: 'createPet answers 500 when the body is not JSON (or is empty).',
    detectedBy: ['STA-007', 'STA-008', 'STA-009'],
    hooks: () => ({
      reply: (reply, context) =>
        reply.error?.kind === 'invalid_json' ? replaceWithError(reply, context, 500, 'internal_error', 'Unexpected token in JSON') : reply,
    }),
  }),
  defineFault({
    name: 'unicode-name-500',
    group: 'status',
    description: 'createPet stores a pet whose name is not ASCII, then fails with 500 while answering.',
    detectedBy: ['SCH-006', 'STA-008', 'STA-009'],
    hooks: () => ({
      reply: (reply, context) =>
        context.operation === 'createPet' && reply.status < 300 && NON_ASCII.test(reply.body ?? '')
          ? replaceWithError(reply, context, 500, 'internal_error', 'cannot encode the name')
          : reply,
    }),
  }),
  defineFault({
    name: 'limit-abc-500',
    group: 'status',
    description: 'listPets answers 500 when limit is not made of digits (abc, 1.5, -1).',
    detectedBy: ['LIM-004', 'STA-008', 'STA-009'],
    hooks: () => ({
      reply: (reply, context) => {
        if (context.operation !== 'listPets' || reply.status !== 400) return reply;
        const limit = new URLSearchParams(context.search).get('limit');
        if (limit === null || !NOT_DIGITS.test(limit)) return reply;
        return replaceWithError(reply, context, 500, 'internal_error', 'NaN is not a valid limit');
      },
    }),
  }),
  defineFault({
    name: 'petid-parsed-leniently',
    group: 'status',
    description: 'getPet reads petId like parseInt: "1.5" or "1abc" finds pet 1 and answers 200.',
    detectedBy: ['STA-012'],
    hooks: () => ({
      petId: (id, raw) => {
        if (id !== undefined) return id;
        const leading = LEADING_INTEGER.exec(raw)?.[1];
        return leading === undefined ? undefined : BigInt(leading);
      },
    }),
  }),
  defineFault({
    name: 'location-missing',
    group: 'status',
    description: "createPet's 201 carries no Location header.",
    detectedBy: ['STA-010'],
    advisoryOnly: true,
    hooks: () => ({ reply: (reply) => (reply.status === 201 ? setHeaders(reply, { location: undefined }) : reply) }),
  }),
  defineFault({
    name: 'content-type-not-checked',
    group: 'status',
    description: 'createPet never answers 415: a JSON text sent as text/plain (or with no type) is accepted.',
    detectedBy: ['STA-011'],
    advisoryOnly: true,
    hooks: () => ({ acceptMediaType: () => true }),
  }),
  defineFault({
    name: 'base-path-without-version',
    group: 'status',
    description: 'The operations answer at the root instead of under /v1 (the version is missing from the path).',
    detectedBy: ['VER-001'],
    hooks: () => ({ basePath: (basePath) => basePath.replace(/\/v1$/, '') }),
  }),
] as const;

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
