import type { KeyRecord } from '../key-ring.ts';
import { defineFault } from './hooks.ts';
import { bearerToken, replaceWithError, setHeaders, withStatus } from './reply-edits.ts';
import type { OutsideFault } from './outside-fault.ts';

const ALL_REFUSALS = ['AUTH-001', 'AUTH-002', 'AUTH-003', 'AUTH-004', 'AUTH-005', 'AUTH-006', 'AUTH-008'];

/** Authentication that lets wrong credentials in, checks in the wrong order, or answers oddly. */
export const AUTH_FAULTS = [
  defineFault({
    name: 'auth-none',
    group: 'auth',
    description: 'No authentication at all: requests without a key are served (charged to the first key).',
    detectedBy: ALL_REFUSALS,
    hooks: () => ({ authenticate: (key, attempt) => key ?? attempt.ring.records[0] }),
  }),
  defineFault({
    name: 'auth-any-token',
    group: 'auth',
    description: 'Any non-empty bearer token is accepted, valid or not.',
    detectedBy: ['AUTH-002', 'AUTH-005', 'AUTH-008'],
    hooks: () => ({
      authenticate: (key, attempt) => key ?? (bearerToken(attempt.authorization) ? attempt.ring.records[0] : undefined),
    }),
  }),
  defineFault({
    name: 'auth-prefix-accepted',
    group: 'auth',
    description: 'A bearer token that is a prefix of a key is accepted (compares only the given length).',
    detectedBy: ['AUTH-005'],
    hooks: () => ({
      authenticate: (key, attempt) => key ?? matchToken(attempt.ring.records, attempt.authorization, (k, t) => k.startsWith(t)),
    }),
  }),
  defineFault({
    name: 'auth-case-insensitive-key',
    group: 'auth',
    description: 'Keys are compared without regard to letter case.',
    detectedBy: ['AUTH-005'],
    hooks: () => ({
      authenticate: (key, attempt) => key ?? matchToken(attempt.ring.records, attempt.authorization, (k, t) => k.toLowerCase() === t.toLowerCase()),
    }),
  }),
  defineFault({
    name: 'auth-basic-accepted',
    group: 'auth',
    description: 'The key is also accepted in the Basic scheme, as is or base64-encoded as user or password.',
    detectedBy: ['AUTH-003'],
    hooks: () => ({
      authenticate: (key, attempt) => {
        if (key) return key;
        const header = attempt.authorization ?? '';
        if (header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
        const token = header.slice(6).trim();
        const decoded = Buffer.from(token, 'base64').toString('utf8');
        for (const candidate of [token, decoded, ...decoded.split(':')]) {
          const found = candidate ? attempt.ring.find(candidate) : undefined;
          if (found) return found;
        }
        return undefined;
      },
    }),
  }),
  defineFault({
    name: 'auth-bearer-base64-accepted',
    group: 'auth',
    description: 'A bearer token that is no key is base64-decoded and looked up again: "Bearer <the key in base64>" is accepted.',
    detectedBy: ['AUTH-002'],
    hooks: () => ({
      authenticate: (key, attempt) => {
        if (key) return key;
        const header = attempt.authorization ?? '';
        if (header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
        const decoded = Buffer.from(header.slice(7), 'base64').toString('utf8');
        return decoded ? attempt.ring.find(decoded) : undefined;
      },
    }),
  }),
  defineFault({
    name: 'auth-query-key-accepted',
    group: 'auth',
    description: 'A key in any query parameter (api_key, key, token…) is accepted without an Authorization header.',
    detectedBy: ['AUTH-006'],
    hooks: () => ({
      authenticate: (key, attempt) => {
        if (key || !attempt.search) return key;
        for (const value of new URLSearchParams(attempt.search).values()) {
          const found = attempt.ring.find(value);
          if (found) return found;
        }
        return undefined;
      },
    }),
  }),
  defineFault({
    name: 'auth-bearer-separator-unchecked',
    group: 'auth',
    description: '"Bearer" followed by any one character and the key is accepted ("Bearer:<key>"): the separator after the scheme is skipped, not checked.',
    detectedBy: ['AUTH-003'],
    hooks: () => ({
      authenticate: (key, attempt) =>
        key ?? (/^bearer[^ ]/i.test(attempt.authorization ?? '') ? attempt.ring.find((attempt.authorization ?? '').slice('Bearer '.length)) : undefined),
    }),
  }),
  defineFault({
    name: 'auth-empty-token-accepted',
    group: 'auth',
    description: 'An Authorization header of "Bearer" with an empty token is accepted.',
    detectedBy: ['AUTH-004'],
    hooks: () => ({
      authenticate: (key, attempt) => key ?? (attempt.authorization?.trim().toLowerCase() === 'bearer' ? attempt.ring.records[0] : undefined),
    }),
  }),
  defineFault({
    name: 'auth-scheme-case-sensitive',
    group: 'auth',
    description: 'Only "Bearer" with this exact capitalisation is accepted; "bearer <key>" gets 401.',
    detectedBy: ['AUTH-010'],
    advisoryOnly: true,
    hooks: () => ({ authenticate: (key, attempt) => (key && attempt.authorization?.startsWith('Bearer ') ? key : undefined) }),
  }),
  defineFault({
    name: 'validate-before-auth',
    group: 'auth',
    description: 'createPet validates the body before the key: an invalid body without a valid key gets 400, not 401.',
    detectedBy: ['AUTH-008'],
    hooks: () => ({
      answerBeforeAuth: (answer, reply, operation) => answer || (operation === 'createPet' && reply.status === 400),
    }),
  }),
  defineFault({
    name: 'not-found-before-auth',
    group: 'auth',
    description: 'getPet looks the pet up before checking the key: an unknown petId without a valid key gets 404.',
    detectedBy: ['AUTH-008'],
    hooks: () => ({
      answerBeforeAuth: (answer, reply, operation) => answer || (operation === 'getPet' && reply.status === 404),
    }),
  }),
  defineFault({
    name: 'same-origin-skips-key',
    group: 'auth',
    description:
      "A request a browser marks same-origin (Sec-Fetch-Site) is served without a key, as by a CSRF exemption that also skips the API key check: the suite's own client never sends the header.",
    detectedBy: ['CON-004'],
    hooks: () => ({
      authenticate: (key, attempt) => key ?? (requestHeaders(attempt.connection)?.['sec-fetch-site'] === 'same-origin' ? attempt.ring.records[0] : undefined),
    }),
  }),
  defineFault({
    name: 'get-pet-refuses-valid-key',
    group: 'auth',
    description: 'getPet answers 401 to a valid key: the deprecated route kept a key check of its own that no current key passes.',
    detectedBy: ['AUTH-007'],
    hooks: () => ({
      reply: (reply, context) =>
        context.operation === 'getPet' && reply.status !== 401 && reply.status !== 429
          ? replaceWithError(reply, context, 401, 'unauthorized', 'the API key is missing or invalid')
          : reply,
    }),
  }),
  defineFault({
    name: 'unauthorized-403',
    group: 'auth',
    description: 'A missing or invalid key gets 403 instead of 401.',
    detectedBy: [...ALL_REFUSALS, 'STA-009'],
    hooks: () => ({ reply: (reply) => (reply.status === 401 ? withStatus(reply, 403) : reply) }),
  }),
  defineFault({
    name: 'www-authenticate-missing',
    group: 'auth',
    description: '401 responses carry no WWW-Authenticate challenge.',
    detectedBy: ['AUTH-009'],
    advisoryOnly: true,
    hooks: () => ({ reply: (reply) => (reply.status === 401 ? setHeaders(reply, { 'www-authenticate': undefined }) : reply) }),
  }),
] as const;

function matchToken(records: readonly KeyRecord[], authorization: string | undefined, matches: (key: string, token: string) => boolean): KeyRecord | undefined {
  const token = bearerToken(authorization);
  return token ? records.find((record) => matches(record.key, token)) : undefined;
}

/**
 * The headers of the request a connection is serving. The authentication seam sees the connection, not
 * the request; Node keeps the response it is writing on the socket, and that response its request.
 */
function requestHeaders(connection: object): Record<string, string | string[] | undefined> | undefined {
  return (connection as { _httpMessage?: { req?: { headers?: Record<string, string | string[] | undefined> } } })._httpMessage?.req?.headers;
}

/** Authentication (outside-fault-list.md 17, 18). */

const BEARER = /^bearer +/i;

export const OUTSIDE_AUTH_FAULTS = [
  {
    name: 'out-auth-query-key',
    area: 'authentication',
    description: 'with no Authorization header, the key is taken from ?api_key=',
    hooks: {
      authenticate: (key, attempt) => {
        if (key !== undefined || attempt.authorization !== undefined || !attempt.search) return key;
        const given = new URLSearchParams(attempt.search).get('api_key');
        return given ? attempt.ring.find(given) : undefined;
      },
    },
  },
  {
    name: 'out-auth-token-prefix',
    area: 'authentication',
    description: "the token is compared over the key's length only: Bearer <key>anything is accepted",
    hooks: {
      authenticate: (key, attempt) => {
        if (key !== undefined || attempt.authorization === undefined || !BEARER.test(attempt.authorization)) return key;
        const token = attempt.authorization.replace(BEARER, '');
        return attempt.ring.records.find((record) => token.startsWith(record.key));
      },
    },
  },
] as const satisfies readonly OutsideFault[];
