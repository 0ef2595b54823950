import { STATUS_CODES } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { INT64_MAX, INT64_MIN, parseJson } from '../../text/json.ts';
import type { KeyRecord } from '../key-ring.ts';
import type { Reply } from '../replies.ts';
import { type FaultHooks, defineFault } from './hooks.ts';
import { replaceWithError } from './reply-edits.ts';

/**
 * Faults in the input families a server sees from real clients and frameworks: Authorization spellings,
 * keep-alive connections, parameters and fields the interface does not define, int64's ends, the ways a
 * JSON body is framed, and the errors a framework answers before the application.
 */

/** A scheme of exactly six letters (as long as "Bearer"), one space, a token. */
const SIX_LETTER_SCHEME = /^[A-Za-z]{6} (\S+)$/;
/** The query parameters listPets defines. */
const LIST_PARAMETERS = new Set(['limit', 'status']);
/** A percent sign not followed by two hex digits. */
const MALFORMED_PERCENT = /%(?![0-9A-Fa-f]{2})/;

export const INPUT_FAMILY_FAULTS = [
  defineFault({
    name: 'auth-any-six-letter-scheme',
    group: 'auth',
    description: 'Only the length of the scheme is checked: "Digest <key>" or "ApiKey <key>" is accepted like "Bearer <key>".',
    detectedBy: ['AUTH-003'],
    hooks: () => ({
      authenticate: (key, attempt) => {
        const token = key ? undefined : SIX_LETTER_SCHEME.exec(attempt.authorization ?? '')?.[1];
        return key ?? (token === undefined ? undefined : attempt.ring.find(token));
      },
    }),
  }),
  defineFault({
    name: 'auth-remembered-per-connection',
    group: 'auth',
    description: 'A keep-alive connection that once carried a valid key is trusted: any later Authorization on it is accepted.',
    detectedBy: ['AUTH-002'],
    hooks: () => {
      const trusted = new WeakMap<object, KeyRecord>();
      return {
        authenticate: (key, attempt) => {
          if (key) trusted.set(attempt.connection, key);
          return key ?? (attempt.authorization === undefined ? undefined : trusted.get(attempt.connection));
        },
      };
    },
  }),
  defineFault({
    name: 'unknown-query-parameter-filters',
    group: 'limits',
    description: 'listPets reads a query parameter it does not define as a filter on a Pet field: ?colour=brown lists no animal.',
    detectedBy: ['LIM-009'],
    hooks: () => ({
      reply: (reply, context) => {
        if (context.operation !== 'listPets' || reply.status !== 200) return reply;
        const names = [...new URLSearchParams(context.search).keys()];
        return names.some((name) => !LIST_PARAMETERS.has(name)) ? { ...reply, body: '[]' } : reply;
      },
    }),
  }),
  defineFault({
    name: 'unknown-query-parameter-500',
    group: 'status',
    description: 'listPets and getPet answer 500 to a query parameter they do not define (a strict query schema whose error escapes).',
    detectedBy: ['LIM-009'],
    hooks: () => ({
      reply: (reply, context) => {
        if ((context.operation !== 'listPets' && context.operation !== 'getPet') || reply.status === 401) return reply;
        const defined = context.operation === 'listPets' ? LIST_PARAMETERS : new Set<string>();
        const names = [...new URLSearchParams(context.search).keys()];
        return names.some((name) => !defined.has(name)) ? replaceWithError(reply, context, 500, 'internal_error', 'unexpected query parameter') : reply;
      },
    }),
  }),
  defineFault({
    name: 'new-pet-mass-assignment',
    group: 'store',
    description: 'Every field of the body is copied onto the stored pet (mass assignment): an "id" in a NewPet becomes the pet\'s id.',
    detectedBy: ['SCH-008'],
    hooks: () => {
      // The id the last NewPet sent, taken by the commit that stores it right after.
      let sentId: bigint | undefined;
      return {
        newPetOutcome: (outcome, body) => {
          const value = 'pet' in outcome ? safeParse(body) : undefined;
          const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
          sentId = typeof id === 'bigint' || (typeof id === 'number' && Number.isSafeInteger(id)) ? BigInt(id) : undefined;
          return outcome;
        },
        assignId: (id) => {
          const chosen = sentId ?? id;
          sentId = undefined;
          return chosen;
        },
      };
    },
  }),
  defineFault({
    name: 'petid-int64-ends-refused',
    group: 'status',
    description: 'getPet treats the bounds of int64 as exclusive: petId -2^63 and 2^63-1 get 400 as if they were not int64.',
    detectedBy: ['INT-006'],
    hooks: () => ({ petId: (id) => (id === INT64_MIN || id === INT64_MAX ? undefined : id) }),
  }),
  defineFault({
    name: 'json-charset-refused',
    group: 'validation',
    description: 'createPet accepts the media type only as exactly "application/json": "application/json; charset=utf-8" gets 415.',
    detectedBy: ['STA-014'],
    hooks: () => ({ acceptMediaType: (accepted, contentType) => accepted && !(contentType ?? '').includes(';') }),
  }),
  defineFault({
    name: 'media-type-whitespace-refused',
    group: 'validation',
    description: 'createPet reads the media type up to the first space: "application/json ; charset=utf-8" (whitespace before the parameter) gets 415.',
    detectedBy: ['STA-018'],
    advisoryOnly: true,
    hooks: () => ({ acceptMediaType: (accepted, contentType) => accepted && !/\s;/.test(contentType ?? '') }),
  }),
  defineFault({
    name: 'chunked-body-refused',
    group: 'validation',
    description: 'createPet reads a body only when Content-Length announces it: a chunked body is answered as if there were none (400).',
    detectedBy: ['STA-014'],
    hooks: () => ({ bodyAnnounced: (announced, headers) => announced && headers['transfer-encoding'] === undefined }),
  }),
  defineFault({
    name: 'body-first-write-only',
    group: 'validation',
    description: 'createPet parses the first piece of the body that arrives: a body sent in several writes is cut short (400).',
    detectedBy: ['STA-014'],
    hooks: () => ({ joinBody: (body, pieces) => pieces[0] ?? body }),
  }),
  defineFault({
    name: 'no-content-type-500',
    group: 'status',
    description: 'createPet without a Content-Type header fails inside the server (it splits the missing header): 500.',
    detectedBy: ['STA-008'],
    hooks: () => {
      // Set by the media-type check of a createPet, read by its reply right after.
      let missing = false;
      return {
        acceptMediaType: (accepted, contentType) => {
          missing = contentType === undefined;
          return accepted;
        },
        reply: (reply, context) => {
          if (context.operation !== 'createPet' || !missing) return reply;
          missing = false;
          return replaceWithError(reply, context, 500, 'internal_error', "Cannot read properties of undefined (reading 'split')");
        },
      };
    },
  }),
  defineFault({
    name: 'blank-body-500',
    group: 'status',
    description: 'createPet with a body of only whitespace fails inside the server (the parser is handed nothing): 500.',
    detectedBy: ['STA-007', 'STA-008'],
    hooks: () => crashOn((body) => body.length > 0 && body.toString('latin1').trim() === '', 'Unexpected end of JSON input'),
  }),
  defineFault({
    name: 'untagged-name-500',
    group: 'status',
    description:
      'createPet of a pet whose name lacks "conformance" (a tag a suite might put on its own pets) fails with 500: only a suite that names itself is served. This suite names its pets as people do, so it meets the 500 as any client does.',
    detectedBy: ['STA-001', 'STA-008', 'SCH-002'],
    hooks: () => crashOn(lacksTag, 'name lookup failed'),
  }),
  defineFault({
    name: 'invalid-utf8-500',
    group: 'status',
    description: 'createPet with a body that is not UTF-8 fails inside the server (a strict decoder throws, uncaught): 500.',
    detectedBy: ['STA-008'],
    hooks: () => crashOn((body) => !isUtf8(body), 'The encoded data was not valid for encoding utf-8'),
  }),
  defineFault({
    name: 'framework-errors-bare',
    group: 'errors',
    description:
      'What the framework answers before the application (an unsupported method, an unknown path, a header too large, a malformed percent-encoding) is a bare text error: no Error body, no X-RateLimit-*.',
    detectedBy: ['RATE-001', 'ERR-001', 'ERR-005'],
    hooks: () => ({
      reply: (reply, context) => {
        const framework = (context.operation === undefined && reply.status >= 400) || (reply.status === 400 && MALFORMED_PERCENT.test(context.search));
        return framework ? bare(reply) : reply;
      },
    }),
  }),
  defineFault({
    name: 'retry-after-in-minutes',
    group: 'rate-limit',
    description: 'Retry-After on a 429 counts whole minutes left (0 for any wait under a minute): a client that waits it comes back before the window turns.',
    detectedBy: ['RATE-007'],
    hooks: () => ({
      reply: (reply, context) =>
        reply.rate?.retryAfter === undefined
          ? reply
          : { ...reply, rate: { ...reply.rate, retryAfter: Math.max(0, Math.floor((reply.rate.resetMs - context.now) / 60_000)) } },
    }),
  }),
] as const;

/** createPet answers 500 with `message` for a body `crashes` picks (its refusal carries the message to the reply). */
function crashOn(crashes: (body: Buffer) => boolean, message: string): FaultHooks {
  return {
    newPetOutcome: (outcome, body) => (crashes(body) ? { kind: 'invalid_json', message } : outcome),
    reply: (reply, context) =>
      context.operation === 'createPet' && reply.error?.message === message ? replaceWithError(reply, context, 500, 'internal_error', message) : reply,
  };
}

/** A framework's own error: the status and its reason phrase as text, nothing else. */
function bare(reply: Reply): Reply {
  return { status: reply.status, body: `${reply.status} ${STATUS_CODES[reply.status] ?? 'Error'}\n`, contentType: 'text/plain; charset=utf-8' };
}

/** A NewPet-looking body whose name does not carry the suite's tag. */
function lacksTag(body: Buffer): boolean {
  const value = safeParse(body);
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' && !name.includes('conformance');
}

function safeParse(body: Buffer): unknown {
  try {
    return parseJson(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
