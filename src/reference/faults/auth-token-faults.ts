import type { OutsideFault } from './outside-fault.ts';

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
