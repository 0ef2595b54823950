import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server, type Socket } from 'node:net';
import type { TestContext } from 'vitest';

/** What a server saw: the Authorization header of every request that reached it (undefined: none). */
export interface Seen {
  requests: number;
  authorizations: Array<string | undefined>;
}

export interface HostileServer {
  origin: string;
  seen: Seen;
}

type Cleanup = Pick<TestContext, 'onTestFinished'>;

/**
 * Listens on 127.0.0.1, port 0, and closes (open sockets included) when the test finishes. Every
 * socket is tracked so a hung or dripping exchange cannot keep the server, or the test, alive.
 */
async function listen(context: Cleanup, server: Server): Promise<string> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  context.onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An HTTP server whose handler may misbehave; it records what reached it. */
export async function startHttp(context: Cleanup, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<HostileServer> {
  const seen: Seen = { requests: 0, authorizations: [] };
  const server = createHttpServer((req, res) => {
    seen.requests += 1;
    seen.authorizations.push(req.headers.authorization);
    res.on('error', () => undefined);
    req.resume();
    handler(req, res);
  });
  // A client that gives up mid-body resets the socket; that is expected here, not a test failure.
  server.on('clientError', (_error, socket) => socket.destroy());
  return { origin: await listen(context, server), seen };
}

/** A TCP server that resets every connection as soon as it is accepted. */
export async function startResetting(context: Cleanup): Promise<HostileServer> {
  const seen: Seen = { requests: 0, authorizations: [] };
  const server = createNetServer((socket) => {
    seen.requests += 1;
    socket.on('error', () => undefined);
    socket.resetAndDestroy();
  });
  return { origin: await listen(context, server), seen };
}

/** A port nothing listens on: bound, then closed again. */
export async function closedPortOrigin(): Promise<string> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Writes `total` bytes of JSON-looking text without Content-Length, honouring backpressure. */
export function streamHuge(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(1024 * 1024, '0,');
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write('[');
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('0]');
  };
  pump();
}

/** Sends the headers of a 64-byte JSON body, then one byte a second. */
export function drip(res: ServerResponse): void {
  const body = JSON.stringify([{ id: 1, name: 'drip', categoryId: 1 }]).padEnd(64, ' ');
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
  let at = 0;
  const timer = setInterval(() => {
    if (res.destroyed || at >= body.length) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body[at]);
    at += 1;
  }, 1000);
  res.on('close', () => clearInterval(timer));
}
