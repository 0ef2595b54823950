import { toCurl } from '../../src/client/curl.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { networkSecrets } from '../../src/client/network-settings.ts';
import { type RawReading, openRawConnection } from '../../src/client/raw-http.ts';
import { createRedactor, recordedBody, redactHeaders } from '../../src/client/redact.ts';
import { wireBytes } from '../../src/text/wire-record.ts';
import { isHarnessError } from '../../src/errors.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';

/**
 * Requests an API client rarely sends but a server meets (a hand-written client, a proxy, a scanner), each
 * written byte for byte on a connection of its own: undici would add the Host header, and answers CONNECT
 * and Expect itself.
 */
export interface OddRequest {
  label: string;
  method: string;
  /** The request target: origin-form, or authority-form for CONNECT. */
  target: string;
  /** Header fields besides Authorization and Accept, in order; Host among them only when sent. */
  headers: Array<[string, string]>;
  /** Bytes written right after the request, in the same write: what follows it on the connection. */
  trailing?: string;
  /**
   * How the probe leaves the connection once it has read: a reset (RST, a client that gives up), which a
   * server must survive, or a plain close.
   */
  end?: 'reset';
  /** Written instead of a request: bytes that are not HTTP at all (method, target and headers only label it). */
  bytes?: string;
}

/** What came back: a response, or why there is none (the connection closed, or nothing came in time). */
export type OddAnswer = (
  | { kind: 'response'; status: number; headers: Record<string, string>; text: string; exchange: Exchange }
  | { kind: 'closed' | 'timeout' | 'malformed'; detail: string; exchange: Exchange }
) & {
  /**
   * With trailing bytes, what the connection gave after the first answer (unless that answer closed it):
   * the bytes' own answer, a close, or nothing in time.
   */
  next?: OddAnswer;
};

/**
 * What follows a valid request in the pipelined probe: bytes no HTTP parser accepts as a request line, so
 * that the server's parser refuses them while the valid request before them is still being answered.
 */
export const NOT_HTTP = 'NOT-HTTP \u0001\u0002 conformance probe\r\n\r\n';

/**
 * The odd requests of HTTP-002, against the base URL: without Host, with an Expect no server knows,
 * CONNECT, and a valid request followed in the same write by bytes that are not HTTP.
 */
export function oddRequests(baseUrl: string): {
  hostless: OddRequest;
  expectation: OddRequest;
  connect: OddRequest;
  garbage: OddRequest;
  noise: OddRequest;
} {
  const base = new URL(baseUrl);
  const list = `${base.pathname.replace(/\/+$/, '')}/pets?limit=1`;
  return {
    hostless: { label: 'an HTTP/1.1 GET /pets without a Host header', method: 'GET', target: list, headers: [] },
    expectation: {
      label: 'GET /pets with "Expect: conformance-probe" (an expectation no server knows)',
      method: 'GET',
      target: list,
      headers: [
        ['Host', base.host],
        ['Expect', 'conformance-probe'],
      ],
    },
    // Reset, not closed, once answered: a server that takes CONNECT over must also handle the socket's errors.
    connect: { label: `CONNECT ${base.host} (a proxy's method)`, method: 'CONNECT', target: base.host, headers: [['Host', base.host]], end: 'reset' },
    garbage: {
      label: 'GET /pets followed, in the same write, by bytes that are not HTTP',
      method: 'GET',
      target: list,
      headers: [['Host', base.host]],
      trailing: NOT_HTTP,
    },
    // The same bytes as the first on a new connection: no request before them to answer.
    noise: { label: 'bytes that are not HTTP, first on a new connection', method: 'GET', target: list, headers: [['Host', base.host]], bytes: NOT_HTTP },
  };
}

/**
 * Sends one odd request with the valid key on a new connection and reads one answer (and, when bytes follow
 * the request, what comes after it); claims the budget first.
 */
export async function sendOddRequest(ctx: ConformanceContext, request: OddRequest): Promise<OddAnswer> {
  const { run } = ctx;
  const base = new URL(run.baseUrl);
  const redactors = [run.apiKey, ...networkSecrets(run.network)].map(createRedactor);
  const redact = (text: string) => redactors.reduce((out, r) => r(out), text);
  const fields: Array<[string, string]> = [
    ...request.headers,
    ['Authorization', `Bearer ${run.apiKey}`],
    ['Accept', 'application/json'],
    ...run.network.headers.map(([name, value]): [string, string] => [name, value]),
  ];
  const head = `${request.method} ${request.target} HTTP/1.1\r\n${fields.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  ctx.rawExchanges.claim();
  const started = performance.now();
  const startedAt = Date.now();
  let reading: RawReading | undefined;
  const written = request.bytes ?? head + (request.trailing ?? '');
  let next: { reading: RawReading; startedAt: number; started: number } | undefined;
  try {
    const connection = await openRawConnection(base, run.timeoutMs, run.network);
    try {
      await connection.write(written);
      reading = await connection.readResponse(run.timeoutMs);
      if (request.trailing !== undefined && reading.kind === 'response' && !reading.response.connectionClose && !reading.response.closeDelimited) {
        next = { startedAt: Date.now(), started: performance.now(), reading: { kind: 'closed', received: Buffer.alloc(0) } };
        next.reading = await connection.readResponse(run.timeoutMs);
      }
    } finally {
      if (request.end === 'reset') connection.reset();
      else connection.close();
    }
  } catch (error) {
    if (!isHarnessError(error)) throw error;
  }
  const first = {
    reading: reading ?? { kind: 'closed' as const, received: Buffer.alloc(0) },
    startedAt,
    started,
    sent: written,
    reached: reading !== undefined,
    place: 'odd' as const,
  };
  const answer = recordAnswer(ctx, request, first, fields, redact);
  if (next) answer.next = recordAnswer(ctx, request, { ...next, sent: request.trailing ?? '', reached: true, place: 'odd-next' }, fields, redact);
  return answer;
}

/** One reading of an odd request's connection, recorded as an exchange of the run. */
function recordAnswer(
  ctx: ConformanceContext,
  request: OddRequest,
  read: { reading: RawReading; startedAt: number; started: number; sent: string; reached: boolean; place: 'odd' | 'odd-next' },
  fields: Array<[string, string]>,
  redact: (text: string) => string,
): OddAnswer {
  const { run } = ctx;
  const base = new URL(run.baseUrl);
  const { reading, startedAt, started } = read;
  // A CONNECT's authority-form target is no URL: the log keeps the origin's (HAR wants an absolute URI),
  // and curl sends the authority as its --request-target.
  const connect = request.method === 'CONNECT';
  const url = connect ? `${base.origin}/` : `${base.origin}${request.target}`;
  const exchange: Exchange = {
    seq: ctx.rawExchanges.nextSeq(),
    startedAt,
    durationMs: performance.now() - started,
    operationId: undefined,
    raw: true,
    request: {
      method: request.method,
      url: redact(url),
      headers: redactHeaders(Object.fromEntries(fields.filter(([name]) => name !== 'Authorization')), redact),
    },
    curl: redact(
      toCurl({
        method: request.method,
        url,
        ...(connect ? { requestTarget: request.target } : {}),
        headers: Object.fromEntries(request.headers),
        ...(request.headers.some(([name]) => name === 'Host') ? {} : { omitHeaders: ['Host'] }),
        shellHeaders: { Authorization: 'Bearer $API_KEY' },
        secret: run.apiKey,
      }),
    ),
  };
  // What went on the wire and how the reading ended, for HTTP-002's rules (the connection is the request's own).
  exchange.wire = {
    place: read.place,
    run: 1,
    connection: 1,
    sent: wireBytes(Buffer.from(read.sent, 'latin1'), redact),
    read: wireBytes(reading.kind === 'response' ? reading.bytes : reading.received, redact),
    ended: read.reached ? reading.kind : 'unreachable',
  };
  if (reading.kind === 'response') {
    const text = reading.response.body.toString('utf8');
    exchange.response = { status: reading.response.status, headers: redactHeaders(reading.response.headers, redact) };
    if (text.length > 0) {
      // A cut is marked, with the size that proves it: a rule that reads the body never judges a prefix as whole.
      const { body, truncated } = recordedBody(text, redact);
      Object.assign(exchange.response, { body, ...(truncated ? { bodyTruncated: true, size: reading.response.body.length } : {}) });
    }
    ctx.rawExchanges.record(exchange);
    return { kind: 'response', status: reading.response.status, headers: reading.response.headers, text, exchange };
  }
  const detail =
    reading.kind === 'malformed'
      ? `an answer that is not HTTP (${reading.reason})`
      : reading.kind === 'timeout'
        ? `no answer within ${run.timeoutMs} ms, the connection still open`
        : 'the connection closed without an answer';
  exchange.error = { code: reading.kind, message: detail };
  ctx.rawExchanges.record(exchange);
  return { kind: reading.kind, detail, exchange };
}
