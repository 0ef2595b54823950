import { decodeContent } from './content-coding.ts';
import { DIRECT, type NetworkSettings } from './network-settings.ts';
import { type RawConnection, openRawConnection } from './raw-http.ts';
import { isHarnessError } from '../errors.ts';

/**
 * One request written by the suite's second HTTP stack: its header fields in the order and letter case
 * given, nothing added but the run's --header fields (a gateway's token) and a body's Content-Length.
 * The request goes on a connection of its own, opened for it and closed after it: a target that tells
 * undici's wire shape from another client's meets a client it cannot tell from curl or a browser.
 */
export interface RawRequest {
  /** Absolute: the origin is where the connection goes, the path and query the request target. */
  url: string;
  method: string;
  /** Written as given, Host among them where the client being imitated puts it. */
  fields: ReadonlyArray<readonly [string, string]>;
  body?: string;
  timeoutMs: number;
  /** How the connection reaches the target: the run's network, or a second vantage point's proxy. */
  network?: NetworkSettings;
  /** Bytes of a decoded body the reader keeps. */
  maxResponseBytes: number;
}

/** What came back: a response (its body decoded), or why there is none. */
export type RawAnswer =
  | { kind: 'response'; status: number; headers: Record<string, string>; bytes: Buffer; unreadable?: string }
  | { kind: 'closed' | 'timeout' | 'malformed' | 'unreachable'; detail: string };

/** The request's bytes as they go on the wire: request line, fields in order, blank line, body. */
export function rawRequestBytes(request: Pick<RawRequest, 'url' | 'method' | 'fields' | 'body' | 'network'>): string {
  const url = new URL(request.url);
  const fields: Array<readonly [string, string]> = [...request.fields, ...(request.network ?? DIRECT).headers];
  if (request.body !== undefined) fields.push(['Content-Length', String(Buffer.byteLength(request.body, 'utf8'))]);
  const head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  // The head is Latin-1 on the wire (the connection writes it so); a body is UTF-8 JSON.
  return request.body === undefined ? head : head + Buffer.from(request.body, 'utf8').toString('latin1');
}

/** Sends one request on a fresh connection and reads one final response; never throws for the target's doing. */
export async function sendRawRequest(request: RawRequest): Promise<RawAnswer> {
  const url = new URL(request.url);
  let connection;
  try {
    connection = await openRawConnection(url, request.timeoutMs, request.network ?? DIRECT);
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    return { kind: 'unreachable', detail: error.message };
  }
  try {
    return await exchangeOn(connection, request);
  } finally {
    connection.close();
  }
}

/**
 * One request on a connection already open (a kept-alive one, say), one final response read; the
 * connection is left as the answer leaves it. A connection the target has closed reads as `closed`.
 */
export async function exchangeOn(connection: RawConnection, request: Omit<RawRequest, 'network'> & Pick<RawRequest, 'network'>): Promise<RawAnswer> {
  if (connection.closed) return { kind: 'closed', detail: 'the target had closed the connection before the request' };
  await connection.write(rawRequestBytes(request));
  const reading = await connection.readResponse(request.timeoutMs);
  if (reading.kind === 'timeout') return { kind: 'timeout', detail: `no whole response within ${request.timeoutMs} ms` };
  if (reading.kind === 'closed') return { kind: 'closed', detail: 'the connection closed before a whole response' };
  if (reading.kind === 'malformed') return { kind: 'malformed', detail: `not an HTTP/1.1 response: ${reading.reason}` };
  const { status, headers, body } = reading.response;
  const decoded = decodeContent(body, headers['content-encoding'], request.maxResponseBytes);
  return decoded.ok
    ? { kind: 'response', status, headers, bytes: decoded.bytes }
    : { kind: 'response', status, headers, bytes: body, unreadable: decoded.reason };
}
