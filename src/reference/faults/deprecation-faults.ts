import type { ErrorKind, Reply } from '../replies.ts';
import { type FaultHooks, type ReplyContext, defineFault } from './hooks.ts';
import { replaceWithError, setHeaders } from './reply-edits.ts';

const WRONG_SUNSET = new Date(Date.UTC(2026, 11, 5)).toUTCString();

/** getPet removed before its date, or announced with wrong or missing headers. */
export const DEPRECATION_FAULTS = [
  defineFault({
    name: 'get-removed-early-404',
    group: 'deprecation',
    description: 'getPet is already removed: every petId gets 404.',
    detectedBy: ['DEP-001', 'STA-003', 'SCH-003', 'CON-001', 'INT-004'],
    hooks: () => removed(404, 'not_found'),
  }),
  defineFault({
    name: 'get-removed-early-410',
    group: 'deprecation',
    description: 'getPet is already removed: every petId gets 410 Gone.',
    detectedBy: ['DEP-001', 'STA-003', 'STA-004', 'STA-009', 'SCH-003', 'CON-001', 'INT-004'],
    hooks: () => removed(410, 'gone'),
  }),
  defineFault({
    name: 'sunset-wrong-date',
    group: 'deprecation',
    description: `getPet's Sunset header names ${WRONG_SUNSET} instead of 5 December 2030.`,
    detectedBy: ['DEP-002', 'DEP-004'],
    hooks: () => getPetHeader('sunset', WRONG_SUNSET),
  }),
  defineFault({
    name: 'sunset-iso-date',
    group: 'deprecation',
    description:
      "getPet's Sunset is the right day written as ISO 8601 (2030-12-05T00:00:00Z), not as an HTTP-date: a client that reads the field fails to parse it.",
    detectedBy: ['DEP-002', 'DEP-004'],
    hooks: () => getPetHeader('sunset', '2030-12-05T00:00:00Z'),
  }),
  defineFault({
    name: 'deprecation-header-missing',
    group: 'deprecation',
    description: 'getPet responses carry no Deprecation header.',
    detectedBy: ['DEP-003'],
    advisoryOnly: true,
    hooks: () => getPetHeader('deprecation', undefined),
  }),
  defineFault({
    name: 'link-header-missing',
    group: 'deprecation',
    description: 'getPet responses carry no Link to the replacement.',
    detectedBy: ['DEP-005'],
    advisoryOnly: true,
    hooks: () => getPetHeader('link', undefined),
  }),
  defineFault({
    name: 'deprecation-not-structured-date',
    group: 'deprecation',
    description: 'getPet sends Deprecation as an HTTP-date (an early draft of RFC 9745), not as @<unix seconds>.',
    detectedBy: ['DEP-007'],
    hooks: () => getPetHeader('deprecation', new Date(Date.UTC(2025, 0, 1)).toUTCString()),
  }),
  defineFault({
    name: 'deprecation-on-every-operation',
    group: 'deprecation',
    description:
      'listPets and createPet announce a deprecation too (Deprecation, Sunset and a Link to the successor, as getPet does), though only getPet is deprecated and listPets is its replacement.',
    detectedBy: ['DEP-006'],
    strictOnly: true,
    hooks: () => replacementHeaders({ deprecation: '@1733356800', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }),
  }),
  defineFault({
    name: 'successor-link-on-replacement',
    group: 'deprecation',
    description:
      'listPets and createPet carry Link: </v2/pets>; rel="successor-version" (a copy of a deprecation middleware\'s Link), naming a successor of the replacement itself.',
    detectedBy: ['DEP-006'],
    strictOnly: true,
    hooks: () => replacementHeaders({ link: '</v2/pets>; rel="successor-version"' }),
  }),
] as const;

/** getPet answers past authentication and the limiter (the pet, or its absence) become this error. */
function removed(status: number, kind: ErrorKind): FaultHooks {
  return {
    reply: (reply, context) => (servedByGetPet(reply, context) ? replaceWithError(reply, context, status, kind, 'getPet has been removed') : reply),
  };
}

function servedByGetPet(reply: Reply, context: ReplyContext): boolean {
  return context.operation === 'getPet' && (reply.status === 200 || reply.status === 404);
}

/** Sets these headers on every listPets and createPet response: the operations that are not deprecated. */
function replacementHeaders(headers: Readonly<Record<string, string>>): FaultHooks {
  return { reply: (reply, context) => (context.operation === 'listPets' || context.operation === 'createPet' ? setHeaders(reply, headers) : reply) };
}

/** Sets (or, with undefined, removes) one header of every getPet response. */
function getPetHeader(name: string, value: string | undefined): FaultHooks {
  return { reply: (reply, context) => (context.operation === 'getPet' ? setHeaders(reply, { [name]: value }) : reply) };
}
