import type { Socket } from 'node:net';
import { defineFault } from './hooks.ts';
import { withStatus } from './reply-edits.ts';

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
  defineFault({
    name: 'hostless-request-500',
    group: 'http',
    description: 'An HTTP/1.1 request without Host is answered 500, as by a handler that reads the missing header, not 400.',
    detectedBy: ['HTTP-002'],
    advisoryOnly: true,
    hooks: () => ({
      // Only the server's own answer to a Host-less request has no operation and this error.
      reply: (reply, context) =>
        context.operation === undefined && reply.error?.kind === 'bad_request' && /\bHost\b/.test(reply.error.message) ? withStatus(reply, 500) : reply,
    }),
  }),
] as const;
