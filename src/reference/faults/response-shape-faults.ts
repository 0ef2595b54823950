import { DEPRECATED_AT_MS, SUNSET_HTTP_DATE } from '../deprecation.ts';
import { defineFault } from './hooks.ts';
import { replaceWithError, setHeaders } from './reply-edits.ts';
import { withBody } from './field-and-rate-edits.ts';

/**
 * Response shapes, statuses, deprecation and versioning as real servers get them wrong: ORM and
 * serializer habits, a handler's default status, res.send of a string, getPet retired early or
 * announced with a date shifted by a time zone.
 */

const DEPRECATION_HEADERS = Object.freeze({ deprecation: `@${DEPRECATED_AT_MS / 1000}`, sunset: SUNSET_HTTP_DATE });

export const INDEPENDENT_SCHEMA_FAULTS = [
  defineFault({
    name: 'ind-sch-id-as-string',
    group: 'schema',
    description: 'Pet ids are sent as JSON strings ("id":"12") so that JavaScript clients keep int64 precision.',
    detectedBy: ['SCH-001', 'SCH-002', 'SCH-003'],
    hooks: () => ({ petWire: (wire) => (wire.id === undefined ? wire : { ...wire, id: JSON.stringify(wire.id) }) }),
  }),
  defineFault({
    name: 'ind-sch-nested-category',
    group: 'schema',
    description: 'The ORM serializes the relation: Pet carries "category":{"id":…} instead of categoryId.',
    detectedBy: ['SCH-001', 'SCH-002', 'SCH-003', 'SCH-005'],
    hooks: () => ({
      petWire: (wire) => {
        const { categoryId, ...rest } = wire;
        return { ...rest, extra: `,"category":{"id":${categoryId ?? 'null'}}${wire.extra ?? ''}` };
      },
    }),
  }),
  defineFault({
    name: 'ind-sch-status-null',
    group: 'schema',
    description: 'A pet added without status is serialized with "status":null (the serializer writes every field).',
    detectedBy: ['SCH-007', 'SCH-002'],
    hooks: () => ({ petWire: (wire) => (wire.status === undefined ? { ...wire, status: 'null' } : wire) }),
  }),
  defineFault({
    name: 'ind-sch-create-200',
    group: 'schema',
    description: "createPet answers 200 (the handler's default status) instead of 201.",
    detectedBy: ['STA-001', 'SCH-002'],
    hooks: () => ({ reply: (reply, context) => (context.operation === 'createPet' && reply.status === 201 ? { ...reply, status: 200 } : reply) }),
  }),
  defineFault({
    name: 'ind-sch-create-echoes-request',
    group: 'schema',
    description: 'createPet answers with the NewPet it received (res.status(201).json(req.body)): the assigned id is missing.',
    detectedBy: ['SCH-002'],
    hooks: () => ({
      reply: (reply, context) =>
        context.operation === 'createPet' && reply.status === 201 && reply.body ? withBody(reply, reply.body.replace(/^\{"id":[^,]*,/, '{')) : reply,
    }),
  }),
  defineFault({
    name: 'ind-sch-list-envelope',
    group: 'schema',
    description: 'listPets, "a paginated list", answers {"data":[…]} instead of a bare array.',
    detectedBy: ['SCH-001'],
    hooks: () => ({
      reply: (reply, context) => (context.operation === 'listPets' && reply.status === 200 && reply.body ? withBody(reply, `{"data":${reply.body}}`) : reply),
    }),
  }),
  defineFault({
    name: 'ind-sch-list-text-html',
    group: 'schema',
    description: 'listPets sends JSON.stringify(pets) with res.send: Content-Type text/html; charset=utf-8.',
    detectedBy: ['SCH-004'],
    hooks: () => ({
      reply: (reply, context) =>
        context.operation === 'listPets' && reply.status === 200 && reply.body ? withBody(reply, reply.body, 'text/html; charset=utf-8') : reply,
    }),
  }),
] as const;

export const INDEPENDENT_STATUS_FAULTS = [
  defineFault({
    name: 'ind-sta-missing-pet-null',
    group: 'status',
    description: 'getPet answers res.json(found) even when nothing was found: 200 with the body null.',
    detectedBy: ['STA-004'],
    hooks: () => ({
      reply: (reply, context) => {
        if (context.operation !== 'getPet' || reply.error?.kind !== 'not_found') return reply;
        const { error: _error, ...rest } = reply;
        return { ...rest, status: 200, body: 'null' };
      },
    }),
  }),
  defineFault({
    name: 'ind-sta-petid-crash',
    group: 'status',
    description: 'A petId that is not an integer reaches BigInt() unguarded: 500 instead of 400 or 404.',
    detectedBy: ['STA-012', 'STA-008'],
    hooks: () => ({
      reply: (reply, context) =>
        reply.error?.kind === 'invalid_pet_id' ? replaceWithError(reply, context, 500, 'internal_error', 'SyntaxError: Cannot convert to a BigInt') : reply,
    }),
  }),
  defineFault({
    name: 'ind-ver-base-path-v1-0',
    group: 'status',
    description: "The service is mounted under /v1.0, after the description's version 1.0.0, not /v1.",
    detectedBy: ['VER-001'],
    hooks: () => ({ basePath: (basePath) => `${basePath.replace(/\/v1$/, '')}/v1.0` }),
  }),
] as const;

export const INDEPENDENT_DEPRECATION_FAULTS = [
  defineFault({
    name: 'ind-dep-getpet-gone',
    group: 'deprecation',
    description: 'getPet was retired ahead of its announced date: every authenticated call gets 410 Gone.',
    detectedBy: ['DEP-001', 'STA-003', 'SCH-003', 'CON-001'],
    hooks: () => ({
      reply: (reply, context) =>
        context.operation === 'getPet' && reply.status !== 401 && reply.status !== 429
          ? replaceWithError(reply, context, 410, 'gone', 'getPet has been removed; use GET /pets')
          : reply,
    }),
  }),
  defineFault({
    name: 'ind-dep-sunset-local-midnight',
    group: 'deprecation',
    description: 'Sunset is local midnight of 5 December 2030 in UTC+1, written in GMT: Wed, 04 Dec 2030 23:00:00 GMT.',
    detectedBy: ['DEP-002', 'DEP-004'],
    hooks: () => ({
      reply: (reply, context) => (context.operation === 'getPet' ? setHeaders(reply, { sunset: 'Wed, 04 Dec 2030 23:00:00 GMT' }) : reply),
    }),
  }),
  defineFault({
    name: 'ind-dep-sunset-iso-date',
    group: 'deprecation',
    description: 'Sunset is written as an ISO date, 2030-12-05, not as the HTTP-date RFC 8594 requires.',
    // DEP-002 added when the suite began to judge a Sunset that is sent by RFC 8594's syntax (a MUST).
    detectedBy: ['DEP-002', 'DEP-004'],
    hooks: () => ({ reply: (reply, context) => (context.operation === 'getPet' ? setHeaders(reply, { sunset: '2030-12-05' }) : reply) }),
  }),
  defineFault({
    name: 'ind-dep-headers-everywhere',
    group: 'deprecation',
    description: 'Deprecation and Sunset are added by a global middleware: listPets and createPet carry them too.',
    detectedBy: ['DEP-006'],
    strictOnly: true,
    hooks: () => ({ reply: (reply) => setHeaders(reply, DEPRECATION_HEADERS) }),
  }),
  defineFault({
    name: 'ind-dep-no-deprecation-header',
    group: 'deprecation',
    description: 'getPet is marked deprecated in the documentation only: no Deprecation header.',
    detectedBy: ['DEP-003'],
    strictOnly: true,
    hooks: () => ({ reply: (reply, context) => (context.operation === 'getPet' ? setHeaders(reply, { deprecation: undefined }) : reply) }),
  }),
] as const;
