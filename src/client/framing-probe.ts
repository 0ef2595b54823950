import { toCurl } from './curl.ts';
import type { Exchange } from './exchange.ts';
import { type RawConnection, type RawReading, type RawResponse, openRawConnection } from './raw-http.ts';
import { DIRECT, type NetworkSettings, networkSecrets } from './network-settings.ts';
import { type Redact, createRedactorOf, recordedBody, redactHeaders } from './redact.ts';
import { type WirePlace, wireBytes } from '../text/wire-record.ts';
import { isHarnessError } from '../errors.ts';

/** How a raw probe spends and records its requests like the client's: the budget, the numbering, the test's evidence. */
export interface RawExchangeSink {
  /** Claims one request of the run's budget; throws ERR_BUDGET_EXHAUSTED when none is left. */
  claim(): void;
  nextSeq(): number;
  record(exchange: Exchange): void;
}

export interface FramingProbeOptions {
  /** Ends in /v1, no trailing slash. */
  baseUrl: string;
  apiKey: string;
  /** Per response, as the client's --timeout. */
  timeoutMs: number;
  /** How long the probe listens after a response for bytes nobody asked for. */
  quietMs: number;
  /** Send one request alone before the pipelined pair (default true); without it the probe costs two requests. */
  lone?: boolean;
  sink: RawExchangeSink;
  /** How the run reaches the target: the probe tunnels through its proxy and sends its --header fields. */
  network?: NetworkSettings;
  /**
   * The run's User-Agent (empty: none), sent as the client sends it: a target that misbehaves only
   * towards requests that carry one must not meet a probe that never does.
   */
  userAgent?: string;
}

/** A departure from one-response-per-request, with the exchanges it was seen on. */
export interface FramingProblem {
  /**
   * `lost`: a request got no byte of an answer, or its connection closed unannounced (what a blip of the
   * network also does: worth a second look); `framing`: bytes that should not be there, or in the wrong order.
   */
  kind: 'lost' | 'framing';
  expected: string;
  actual: string;
  exchanges: Exchange[];
}

export interface FramingProbeResult {
  problems: FramingProblem[];
  exchanges: Exchange[];
  /** Connections the probe opened: more than one when the target said Connection: close (legal). */
  connections: number;
  /** What a reader should know: a close the target announced, a pipelined request it left unanswered after one. */
  notes: string[];
}

/** Bytes of unsolicited output quoted in a failure. */
const QUOTED_BYTES = 300;

/** Requests the probe sends: one alone (unless `lone` is false), then two pipelined. */
export function framingProbeRequests(lone = true): number {
  return lone ? 3 : 2;
}

/**
 * One connection, one request, exactly one response, then silence for `quietMs`; then two requests in one
 * write (the second without a key, so that its 401 tells the two answers apart), exactly two responses
 * in order, then silence again. `Connection: close` from the target is legal: the next request goes on a
 * new connection. A close it did not announce, bytes nobody asked for, a missing or malformed answer
 * are problems. Each request claims the budget before it is written.
 */
export async function probeFraming(options: FramingProbeOptions, run = 1): Promise<FramingProbeResult> {
  const { sink, timeoutMs, quietMs } = options;
  const network = options.network ?? DIRECT;
  const redact = createRedactorOf([options.apiKey, ...networkSecrets(network)]);
  const extra = network.headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const base = new URL(options.baseUrl);
  const target = `${base.pathname.replace(/\/+$/, '')}/pets?limit=1`;
  const url = `${base.origin}${target}`;
  const problems: FramingProblem[] = [];
  const exchanges: Exchange[] = [];
  const notes: string[] = [];
  let connections = 0;

  const agent = options.userAgent ? `User-Agent: ${options.userAgent}\r\n` : '';
  const request = (authorized: boolean) =>
    `GET ${target} HTTP/1.1\r\nHost: ${base.host}\r\n${agent}${authorized ? `Authorization: Bearer ${options.apiKey}\r\n` : ''}${extra}Accept: application/json\r\n\r\n`;

  const open = async (place: WirePlace): Promise<RawConnection | undefined> => {
    connections += 1;
    try {
      return await openRawConnection(base, timeoutMs, network);
    } catch (error) {
      if (!isHarnessError(error)) throw error;
      const exchange = record(place, performance.now(), Date.now(), { kind: 'error', code: error.code, message: error.message });
      problems.push({ kind: 'lost', expected: 'a connection to the target', actual: redact(error.message), exchanges: [exchange] });
      return undefined;
    }
  };

  type Outcome = RawReading | { kind: 'error'; code: string; message: string };

  /** Records one exchange, with what went on the wire (HTTP-001's rule judges the probe again from it). */
  function record(place: WirePlace, started: number, startedAt: number, outcome: Outcome): Exchange {
    const authorized = place === 'lone' || place === 'first';
    const headers: Record<string, string> = { Host: base.host, ...(options.userAgent ? { 'User-Agent': options.userAgent } : {}), Accept: 'application/json' };
    if (authorized) headers.Authorization = 'Bearer ***';
    const exchange: Exchange = {
      seq: sink.nextSeq(),
      startedAt,
      durationMs: performance.now() - started,
      operationId: 'listPets',
      raw: true,
      request: { method: 'GET', url: redact(url), headers: redactHeaders(headers, redact) },
      curl: redact(
        toCurl({
          method: 'GET',
          url,
          headers: { Accept: 'application/json' },
          ...(authorized ? { shellHeaders: { Authorization: 'Bearer $API_KEY' } } : {}),
          secret: options.apiKey,
        }),
      ),
    };
    const read = outcome.kind === 'response' ? outcome.bytes : outcome.kind === 'error' ? Buffer.alloc(0) : outcome.received;
    const ended = outcome.kind === 'error' ? 'unreachable' : outcome.kind;
    const sent = wireBytes(Buffer.from(request(authorized), 'latin1'), redact);
    exchange.wire = { place, run, connection: connections, sent, read: wireBytes(read, redact), ended };
    if (outcome.kind === 'response') {
      const text = outcome.response.body.toString('utf8');
      exchange.response = { status: outcome.response.status, headers: redactHeaders(outcome.response.headers, redact) };
      if (text.length > 0) {
        const { body, truncated } = recordedBody(text, redact);
        exchange.response.body = body;
        if (truncated) exchange.response.bodyTruncated = true;
      }
    } else {
      const failure = outcome.kind === 'error' ? outcome : missing(outcome, timeoutMs);
      exchange.error = { code: failure.code, message: redact(failure.message) };
    }
    sink.record(exchange);
    exchanges.push(exchange);
    return exchange;
  }

  /** Reads the answer to one request written earlier; records the exchange, and a problem when there is none. */
  async function answer(connection: RawConnection, place: WirePlace, started: number, startedAt: number, what: string) {
    const reading = await connection.readResponse(timeoutMs);
    if (reading.kind === 'response') return { exchange: record(place, started, startedAt, reading), response: reading.response };
    const exchange = record(place, started, startedAt, reading);
    const kind = reading.kind !== 'malformed' && reading.received.length === 0 ? 'lost' : 'framing';
    problems.push({ kind, expected: `one response to ${what}`, actual: describeMissing(reading, timeoutMs, redact), exchanges: [exchange] });
    return undefined;
  }

  /** Listens after `response`; bytes are a problem, and so is a close the response did not announce. */
  async function listen(connection: RawConnection, exchange: Exchange, response: RawResponse, what: string, judgeClose: boolean): Promise<boolean> {
    const quiet = await connection.quiet(quietMs);
    // Logged with the exchange, so that a rule (nothing-heard-after) judges it again from the log.
    exchange.heardAfter = { bytes: quiet.bytes.length, closed: quiet.closed };
    if (quiet.bytes.length > 0) {
      problems.push({
        kind: 'framing',
        expected: `nothing after the response to ${what} until the next request`,
        actual: `${quiet.bytes.length} more bytes within ${quietMs} ms: ${quoted(quiet.bytes, redact)}`,
        exchanges: [exchange],
      });
      return false;
    }
    if (!quiet.closed) return true;
    const announced = response.connectionClose || response.closeDelimited;
    if (announced) notes.push(`the target closed the connection after the response to ${what}, as it had announced (Connection: close)`);
    else if (judgeClose) {
      problems.push({
        kind: 'lost',
        expected: `the connection kept open after the response to ${what} (HTTP/1.1 connections persist unless the response says Connection: close)`,
        actual: `the target closed it ${quiet.closedAfterMs ?? 0} ms after a response without Connection: close`,
        exchanges: [exchange],
      });
    }
    return false;
  }

  let connection = await open(options.lone === false ? 'first' : 'lone');
  if (!connection) return { problems, exchanges, connections, notes };
  try {
    // 1. One request, one response, then silence.
    if (options.lone !== false) {
      sink.claim();
      const started = performance.now();
      const startedAt = Date.now();
      await connection.write(request(true));
      const first = await answer(connection, 'lone', started, startedAt, 'a request alone on its connection');
      if (!first) return { problems, exchanges, connections, notes };
      const stillOpen = await listen(connection, first.exchange, first.response, 'a request alone on its connection', true);
      if (problems.length > 0) return { problems, exchanges, connections, notes };
      if (!stillOpen) {
        connection.close();
        connection = await open('first');
        if (!connection) return { problems, exchanges, connections, notes };
      }
    }
    // 2. Two requests in one write: two responses, in order, then silence.
    sink.claim();
    sink.claim();
    const started = performance.now();
    const startedAt = Date.now();
    await connection.write(request(true) + request(false));
    const second = await answer(connection, 'first', started, startedAt, 'the first of two pipelined requests');
    if (!second) return { problems, exchanges, connections, notes };
    if (second.response.connectionClose || second.response.closeDelimited) {
      // A server that announces close must not process the request after it (RFC 9112 §9.6): silence.
      const after = await connection.readResponse(quietMs);
      if (after.kind === 'response') {
        problems.push({
          kind: 'framing',
          expected: 'no answer to the request after one whose answer said Connection: close: that connection ends there (RFC 9112 §9.6)',
          actual: `the request after it answered ${after.response.status} on the same connection`,
          exchanges: [second.exchange, record('after-close', started, startedAt, after)],
        });
        return { problems, exchanges, connections, notes };
      }
      // Logged with the exchange, as after a response listened past: nothing-heard-after judges it again.
      second.exchange.heardAfter = { bytes: after.received.length, closed: after.kind === 'closed' };
      if (after.received.length > 0) {
        problems.push({
          kind: 'framing',
          expected: 'nothing after a response that said Connection: close',
          actual: `${after.received.length} bytes: ${quoted(after.received, redact)}`,
          exchanges: [second.exchange],
        });
      } else notes.push('the target answered the first of two pipelined requests with Connection: close and left the second unanswered (legal)');
      return { problems, exchanges, connections, notes };
    }
    const third = await answer(connection, 'second', started, startedAt, 'the second of two pipelined requests (sent without a key)');
    if (!third) return { problems, exchanges, connections, notes };
    if (second.response.status === 401 && third.response.status >= 200 && third.response.status < 300) {
      problems.push({
        kind: 'framing',
        expected: 'the answers to two pipelined requests in the order they were sent (the keyed one first)',
        actual: `${second.response.status} to the keyed request, ${third.response.status} to the one without a key: the answers are swapped`,
        exchanges: [second.exchange, third.exchange],
      });
    }
    await listen(connection, third.exchange, third.response, 'the second of two pipelined requests', false);
    return { problems, exchanges, connections, notes };
  } finally {
    connection?.close();
  }
}

/**
 * The probe, and once more when all it saw was a lost request (what a blip of the network also does) and
 * `mayRepeat` allows (the budget): a target that drops reused connections drops them again. Bytes out of
 * place are never a blip. `lostFirst` says what the first run lost, when it ran again, and `earlier` holds
 * that run's exchanges (logged too, and judged by what they recorded).
 */
export async function probeFramingOnceMoreIfLost(
  options: FramingProbeOptions,
  mayRepeat: () => boolean,
): Promise<FramingProbeResult & { lostFirst?: string; earlier?: Exchange[] }> {
  const first = await probeFraming(options);
  const lost = first.problems.length > 0 && first.problems.every((problem) => problem.kind === 'lost');
  if (!lost || !mayRepeat()) return first;
  return { ...(await probeFraming(options, 2)), lostFirst: first.problems[0]?.actual ?? '', earlier: first.exchanges };
}

function missing(reading: Exclude<RawReading, { kind: 'response' }>, timeoutMs: number): { code: string; message: string } {
  if (reading.kind === 'timeout') return { code: 'ERR_TARGET_TIMEOUT', message: `no whole response within ${timeoutMs} ms` };
  if (reading.kind === 'closed') return { code: 'ERR_TARGET_UNREACHABLE', message: 'connection closed by the target before a whole response' };
  return { code: 'ERR_TARGET_UNREACHABLE', message: `not an HTTP/1.1 response: ${reading.reason}` };
}

function describeMissing(reading: Exclude<RawReading, { kind: 'response' }>, timeoutMs: number, redact: Redact): string {
  const got = reading.received.length > 0 ? ` after ${reading.received.length} bytes: ${quoted(reading.received, redact)}` : ' with no byte of an answer';
  if (reading.kind === 'timeout') return `no whole response within ${timeoutMs} ms${got}`;
  if (reading.kind === 'closed') return `the target closed the connection${got}`;
  return `${reading.reason}${got}`;
}

/** Bytes as JSON-escaped text (control characters visible), cut, the key scrubbed. */
function quoted(bytes: Buffer, redact: Redact): string {
  const text = bytes.subarray(0, QUOTED_BYTES).toString('latin1');
  return `${redact(JSON.stringify(text))}${bytes.length > QUOTED_BYTES ? ` … (${bytes.length - QUOTED_BYTES} more bytes)` : ''}`;
}
