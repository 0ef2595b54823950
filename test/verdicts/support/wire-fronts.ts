import { type IncomingMessage, request as httpRequest } from 'node:http';
import type { TestContext } from 'vitest';
import { type HostileServer, startHttp } from './hostile-servers.ts';

/**
 * Fronts that treat clients apart by what a request looks like on the wire or where it comes from, in
 * front of a correct server: a request they take for another client's is served whatever key it carries
 * (or none: the front puts the valid key in) and its answer loses the rate-limit headers. Each is a
 * target the suite must call NOT CONFORMANT.
 */

type Cleanup = Pick<TestContext, 'onTestFinished'>;

/** True: the request is served with the bypass (any key or none answered as the valid one). */
export type Bypass = (req: IncomingMessage, body: Buffer) => boolean;

const RATE_HEADERS = /^(x-ratelimit-|ratelimit|retry-after$)/i;

/** A front forwarding to `upstream` (an origin), the bypass applied to what `bypass` picks. */
export async function startBypassFront(context: Cleanup, upstream: string, key: string, bypass: Bypass): Promise<HostileServer> {
  return startHttp(context, (req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (chunk: Buffer) => pieces.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(pieces);
      const lenient = bypass(req, body);
      const headers = { ...req.headers, ...(lenient ? { authorization: `Bearer ${key}` } : {}) };
      const forward = httpRequest(upstream, { path: req.url, method: req.method, headers }, (answer) => {
        const kept: string[] = [];
        for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
          const name = answer.rawHeaders[i] as string;
          if (!(lenient && RATE_HEADERS.test(name))) kept.push(name, answer.rawHeaders[i + 1] as string);
        }
        res.writeHead(answer.statusCode ?? 502, kept);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
}

/** undici's head: a lower-case `host` first, then `connection` (curl, browsers and Python write neither so). */
export function looksLikeUndici(req: IncomingMessage): boolean {
  return req.rawHeaders[0] === 'host' && req.rawHeaders[2] === 'connection';
}

/** Any mark of the suite a request may carry: its User-Agent, its padding header, a pet name it chose. */
export function showsSuiteMark(req: IncomingMessage, body: Buffer): boolean {
  if ((req.headers['user-agent'] ?? '').startsWith('animal-store-conformance')) return true;
  if (req.headers['x-conformance-padding'] !== undefined) return true;
  return body.toString('latin1').includes('conformance-');
}

/**
 * The address latch: the first address whose request shows a mark of the suite is the suite's for an hour;
 * every other address then gets the bypass. Only a second vantage point shows it.
 */
export function addressLatch(): Bypass {
  const latched = new Map<string, number>();
  return (req, body) => {
    const address = req.socket.remoteAddress ?? '';
    const now = Date.now();
    if (latched.size === 0 && showsSuiteMark(req, body)) latched.set(address, now + 3_600_000);
    const until = latched.get(address);
    return latched.size > 0 && (until === undefined || until < now);
  };
}

/**
 * Old connections: a request on a connection open longer than `maxAgeMs` is answered 500; younger ones go
 * to `upstream` (an origin). A client whose connections are all young never meets it.
 */
export async function startAgingFront(context: Cleanup, upstream: string, maxAgeMs: number): Promise<HostileServer> {
  const openedAt = new WeakMap<object, number>();
  return startHttp(context, (req, res) => {
    const opened = openedAt.get(req.socket) ?? Date.now();
    openedAt.set(req.socket, opened);
    const pieces: Buffer[] = [];
    req.on('data', (chunk: Buffer) => pieces.push(chunk));
    req.on('end', () => {
      if (Date.now() - opened > maxAgeMs) {
        res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"code":"internal","message":"internal error"}');
        return;
      }
      const forward = httpRequest(upstream, { path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(pieces));
    });
  });
}
