import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import type { ClientClock } from '../../src/client/index.ts';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  /** http://127.0.0.1:port */
  origin: string;
  /** origin + /v1, the base URL a client takes. */
  baseUrl: string;
  requests: SeenRequest[];
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => unknown;

/** A throwaway server on 127.0.0.1, port 0, closed (connections included) when the test finishes. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      void handler(req, res, seen);
    });
  });
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, baseUrl: `${origin}/v1`, requests };
}

/** Valid rate-limit headers for a window of `limit` requests resetting `inSeconds` after `now`. */
export function rateHeaders(now: number, remaining = 59, limit = 60, inSeconds = 30): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.floor(now / 1000) + inSeconds),
  };
}

/** Answers JSON text with the given status and headers. */
export function sendJson(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(text);
}

/** A clock that records sleeps and advances by them instead of sleeping. */
export function fakeClock(start = Date.UTC(2025, 0, 1, 12, 0, 0)): ClientClock & { sleeps: number[]; set(t: number): void } {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    async sleep(ms) {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
    set(t) {
      now = t;
    },
  };
}
