import { type Socket, connect } from 'node:net';

/** One HTTP answer as read off the wire. */
export interface RawAnswer {
  status: number;
  /** Lower-case names. */
  headers: Map<string, string>;
  body: string;
}

export interface RawOutcome {
  /** The first complete answer, if one came. */
  answer: RawAnswer | undefined;
  /** The server closed (or reset) the connection. */
  closed: boolean;
  /** Neither an answer nor a close within the time-out. */
  hung: boolean;
  ms: number;
}

/** What to send: bytes at once, or a writer that drips them (slow clients). */
export type Payload = Buffer | ((socket: Socket) => Promise<void>);

/**
 * Opens a connection, sends the payload and waits for the first whole answer (Content-Length or chunked
 * framing; HEAD answers have no body) or for the server to close. Never throws.
 */
export function rawExchange(port: number, payload: Payload, options: { timeoutMs: number; head?: boolean }): Promise<RawOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ port, host: '127.0.0.1', noDelay: true });
    const settle = (closed: boolean, hung: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer: parseAnswer(Buffer.concat(chunks), options.head ?? false), closed, hung, ms: performance.now() - started });
    };
    const timer = setTimeout(() => settle(false, parseAnswer(Buffer.concat(chunks), options.head ?? false) === undefined), options.timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseAnswer(Buffer.concat(chunks), options.head ?? false)) settle(false, false);
    });
    socket.on('error', () => settle(true, false));
    socket.on('close', () => settle(true, false));
    socket.on('connect', () => {
      if (Buffer.isBuffer(payload)) socket.write(payload, () => undefined);
      else payload(socket).catch(() => undefined);
    });
  });
}

/** The first complete answer in `bytes`, or undefined while it is incomplete. */
export function parseAnswer(bytes: Buffer, head: boolean): RawAnswer | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const lines = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const rest = bytes.subarray(end + 4);
  if (head || status === 204 || status === 304) return { status, headers, body: '' };
  const length = headers.get('content-length');
  if (length !== undefined) {
    return rest.length >= Number(length) ? { status, headers, body: rest.subarray(0, Number(length)).toString('utf8') } : undefined;
  }
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') return dechunk(rest, status, headers);
  return undefined;
}

function dechunk(rest: Buffer, status: number, headers: Map<string, string>): RawAnswer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return { status, headers, body: Buffer.concat(parts).toString('utf8') };
    if (rest.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Writes `bytes` a few at a time with a pause between: a slow but live client. */
export function drip(bytes: Buffer, pieces: number, pauseMs: number): (socket: Socket) => Promise<void> {
  return async (socket) => {
    const size = Math.ceil(bytes.length / pieces);
    for (let at = 0; at < bytes.length && !socket.destroyed; at += size) {
      socket.write(bytes.subarray(at, at + size));
      await new Promise((resume) => setTimeout(resume, pauseMs));
    }
  };
}
