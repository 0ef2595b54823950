import { defineFault } from './hooks.ts';
import { setHeaders } from './reply-edits.ts';
import type { KeyRecord, KeyRing } from '../key-ring.ts';

/**
 * Authentication as real servers get it wrong: hand-written header parsing, lenient key lookups,
 * public read endpoints, middleware in the wrong order, framework defaults for the 401.
 */

const QUERY_KEY_NAMES = ['api_key', 'apiKey', 'apikey', 'key', 'access_token', 'token'];

function findBy(ring: KeyRing, match: (key: string) => boolean): KeyRecord | undefined {
  return ring.records.find((record) => match(record.key));
}

export const INDEPENDENT_AUTH_FAULTS = [
  defineFault({
    name: 'ind-auth-any-scheme',
    group: 'auth',
    description: 'The token is whatever follows the first space: "Basic <key>", "Token <key>" or "ApiKey <key>" are accepted like Bearer.',
    detectedBy: ['AUTH-003'],
    hooks: () => ({
      authenticate: (key, { authorization, ring }) => {
        if (key || !authorization) return key;
        const space = authorization.indexOf(' ');
        return space > 0 ? ring.find(authorization.slice(space + 1).trim()) : undefined;
      },
    }),
  }),
  defineFault({
    name: 'ind-auth-key-prefix',
    group: 'auth',
    description: 'Keys are matched with startsWith: any non-empty prefix of a valid key is accepted.',
    detectedBy: ['AUTH-005'],
    hooks: () => ({
      authenticate: (key, { authorization, ring }) => {
        if (key || !authorization?.startsWith('Bearer ')) return key;
        const token = authorization.slice(7);
        return token ? findBy(ring, (k) => k.startsWith(token)) : undefined;
      },
    }),
  }),
  defineFault({
    name: 'ind-auth-key-case-insensitive',
    group: 'auth',
    description: 'Keys are compared after lower-casing both sides (a case-insensitive database collation).',
    detectedBy: ['AUTH-005'],
    hooks: () => ({
      authenticate: (key, { authorization, ring }) => {
        if (key || !authorization?.startsWith('Bearer ')) return key;
        const token = authorization.slice(7).toLowerCase();
        return token ? findBy(ring, (k) => k.toLowerCase() === token) : undefined;
      },
    }),
  }),
  defineFault({
    name: 'ind-auth-query-key',
    group: 'auth',
    description: 'Without an Authorization header, a key in the query string (api_key, apiKey, key, access_token, token) is accepted.',
    detectedBy: ['AUTH-006'],
    hooks: () => ({
      authenticate: (key, { authorization, search, ring }) => {
        if (key || authorization !== undefined || !search) return key;
        const params = new URLSearchParams(search);
        for (const name of QUERY_KEY_NAMES) {
          const value = params.get(name);
          const found = value ? ring.find(value) : undefined;
          if (found) return found;
        }
        return undefined;
      },
    }),
  }),
  defineFault({
    name: 'ind-auth-empty-key-configured',
    group: 'auth',
    description: 'The key list was read from "key1,key2," and holds an empty key: "Authorization: Bearer " with no token is accepted.',
    detectedBy: ['AUTH-004'],
    hooks: () => ({
      authenticate: (key, { authorization, ring }) => key ?? (authorization !== undefined && /^bearer\s*$/i.test(authorization) ? ring.records[0] : undefined),
    }),
  }),
  defineFault({
    name: 'ind-auth-public-list',
    group: 'auth',
    description: 'GET /pets was made public: it is served without a key, or with a wrong one.',
    detectedBy: ['AUTH-001', 'AUTH-002'],
    hooks: () => ({ answerBeforeAuth: (answer, _reply, operation) => answer || operation === 'listPets' }),
  }),
  defineFault({
    name: 'ind-auth-validate-first',
    group: 'auth',
    description: 'createPet validates its body before the auth middleware runs: an invalid body without a key gets 400, not 401.',
    detectedBy: ['AUTH-008'],
    hooks: () => ({ answerBeforeAuth: (answer, reply, operation) => answer || (operation === 'createPet' && reply.status === 400) }),
  }),
  defineFault({
    name: 'ind-auth-401-plain-text',
    group: 'auth',
    description: 'The bearer-auth middleware\'s own 401: a text/plain body "Unauthorized", no Error body.',
    detectedBy: ['AUTH-001', 'AUTH-002', 'ERR-001', 'SCH-004'],
    hooks: () => ({
      reply: (reply) => {
        if (reply.status !== 401) return reply;
        const { error: _error, ...rest } = reply;
        return { ...rest, body: 'Unauthorized', contentType: 'text/plain; charset=UTF-8' };
      },
    }),
  }),
  defineFault({
    name: 'ind-auth-wrong-key-403',
    group: 'auth',
    description: 'A missing key gets 401 but a wrong key gets 403 Forbidden.',
    detectedBy: ['AUTH-002', 'AUTH-005', 'STA-009'],
    hooks: () => ({
      reply: (reply, context) => {
        if (reply.status !== 401 || !(reply.headers?.['www-authenticate'] ?? '').includes('invalid_token')) return reply;
        const forbidden = context.errorReply(403, 'unauthorized', 'the API key is not allowed');
        if (reply.rate) forbidden.rate = reply.rate;
        return forbidden;
      },
    }),
  }),
  defineFault({
    name: 'ind-auth-no-challenge',
    group: 'auth',
    description: '401 responses carry no WWW-Authenticate header.',
    detectedBy: ['AUTH-009'],
    strictOnly: true,
    hooks: () => ({ reply: (reply) => (reply.status === 401 ? setHeaders(reply, { 'www-authenticate': undefined }) : reply) }),
  }),
  defineFault({
    name: 'ind-auth-scheme-case-sensitive',
    group: 'auth',
    description: 'The header must start with "Bearer " exactly: "bearer <key>" is refused.',
    detectedBy: ['AUTH-010'],
    strictOnly: true,
    hooks: () => ({ authenticate: (key, { authorization }) => (key && authorization?.startsWith('Bearer ') ? key : undefined) }),
  }),
] as const;
