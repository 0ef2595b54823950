import { createServer as createHttpServer, type IncomingMessage, type ServerResponse, request as httpRequest } from 'node:http';
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

/** An upstream answer as the tampering proxy holds it, whole, before it is passed on. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** What a tampering proxy does to the connection besides the answers (HTTP/1.1 framing, HTTP-001). */
export interface ConnectionTampering {
  /** Every answer is preceded by an unsolicited interim `100 Continue` (legal HTTP). */
  continueFirst?: boolean;
  /** Every answer says `Connection: close`, and the connection closes after it (legal HTTP). */
  connectionClose?: boolean;
  /**
   * Every answer is followed by one more, unasked-for response on the same connection; a function picks
   * the requests whose answers are (to spare the probe, say).
   */
  extraResponse?: boolean | ((req: IncomingMessage) => boolean);
  /** A connection's second request is never answered: the connection closes, without `Connection: close`. */
  dropReused?: boolean;
  /**
   * The answers picked (every one, or those of status 413) say `Connection: close`, and the connection is
   * kept and goes on serving: what a server whose close is lost does (RFC 9112 §9.6 forbids it).
   */
  closeButServe?: 'every' | 413;
}

/** The response a desynchronising server sends after each answer: a well-formed 200 nobody asked for. */
export const UNASKED_RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]';

/**
 * A proxy in front of a correct server (`upstream`, an origin) that may rewrite each answer, bytes and
 * all, before passing it on; Content-Length is set for what it sends. `options` spoil (or keep to) the
 * connection's framing: see ConnectionTampering.
 */
export async function startTampering(
  context: Cleanup,
  upstream: string,
  tamper: (answer: Answer, req: IncomingMessage) => Answer,
  options: ConnectionTampering = {},
): Promise<HostileServer> {
  const requestsOn = new WeakMap<Socket, number>();
  return startHttp(context, (req, res) => {
    const count = (requestsOn.get(req.socket) ?? 0) + 1;
    requestsOn.set(req.socket, count);
    if (options.dropReused && count > 1) {
      req.socket.destroy();
      return;
    }
    const extra = typeof options.extraResponse === 'function' ? options.extraResponse(req) : options.extraResponse === true;
    if (extra) res.once('finish', () => req.socket.writable && req.socket.write(UNASKED_RESPONSE));
    const sent: Buffer[] = [];
    req.on('data', (chunk: Buffer) => sent.push(chunk));
    req.on('end', () => {
      if (options.continueFirst) res.writeContinue();
      // The target goes on as it came, in absolute-form too (STA-017), for the reference to answer.
      const forward = httpRequest(upstream, { path: req.url ?? '/', method: req.method, headers: req.headers }, (answer) => {
        const received: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => received.push(chunk));
        answer.on('end', () => {
          const headers: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value !== undefined && name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection') headers[name] = value;
          }
          const out = tamper({ status: answer.statusCode ?? 502, headers, body: Buffer.concat(received) }, req);
          const lying = options.closeButServe === 'every' || (options.closeButServe === 413 && out.status === 413);
          const close = options.connectionClose || lying ? { connection: 'close' } : {};
          res.writeHead(out.status, { ...out.headers, ...close, 'content-length': String(out.body.length) });
          // Node marks an answer that says close as the connection's last (and then ends it): unmarked, it goes on serving.
          if (lying) (res as ServerResponse & { _last: boolean })._last = false;
          res.end(out.body);
        });
      });
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(sent));
    });
  });
}
