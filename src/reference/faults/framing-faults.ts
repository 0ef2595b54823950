import type { Socket } from 'node:net';
import { defineFault } from './hooks.ts';

/** Faults in HTTP/1.1 framing: what a keep-alive client meets on the connection itself. */
export const FRAMING_FAULTS = [
  defineFault({
    name: 'reused-connection-dropped',
    group: 'http',
    description: 'A connection is closed without an answer when a second request arrives on it; no response said Connection: close.',
    detectedBy: ['HTTP-001'],
    hooks: () => {
      // The authentication seam is the one that sees every request with its connection.
      const requests = new WeakMap<object, number>();
      return {
        authenticate: (key, attempt) => {
          const count = (requests.get(attempt.connection) ?? 0) + 1;
          requests.set(attempt.connection, count);
          if (count > 1) (attempt.connection as Socket).destroy();
          return key;
        },
      };
    },
  }),
] as const;
