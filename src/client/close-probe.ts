import { toCurl } from './curl.ts';
import type { Exchange } from './exchange.ts';
import type { FramingProblem, FramingProbeOptions } from './framing-probe.ts';
import { DIRECT, networkSecrets } from './network-settings.ts';
import { type RawReading, openRawConnection } from './raw-http.ts';
import { createRedactorOf, recordedBody, redactHeaders } from './redact.ts';
import { wireBytes } from '../text/wire-record.ts';
import { isHarnessError } from '../errors.ts';

/**
 * Bytes of the refused upload: past the body limits servers commonly set (1 MiB is nginx's and many
 * frameworks' default), and no JSON a server could store (it never closes), so a server that reads it
 * whole answers 400, never 201.
 */
export const UPLOAD_BYTES = 1024 * 1024 + 1024;

/** Requests the close probe sends: the upload, and a request after it in the same write. */
export const CLOSE_PROBE_REQUESTS = 2;

export interface CloseProbeResult {
  problems: FramingProblem[];
  exchanges: Exchange[];
  notes: string[];
}

/**
 * A server that answers `Connection: close` must not process any further request on that connection
 * (RFC 9112 §9.6): the connection ends there. The probe sends an upload too large for most servers,
 * then (in the same write) a request without a key, and reads: when the answer to the upload says
 * close, nothing may answer the request after it. A server that accepts the upload, or refuses it
 * without announcing a close, is not judged here (RFC 9110 §15.5.14 lets it close after a 413).
 */
export async function probeCloseKept(options: Omit<FramingProbeOptions, 'lone'>): Promise<CloseProbeResult> {
  const { sink, timeoutMs, quietMs } = options;
  const network = options.network ?? DIRECT;
  const redact = createRedactorOf([options.apiKey, ...networkSecrets(network)]);
  const base = new URL(options.baseUrl);
  const path = base.pathname.replace(/\/+$/, '');
  const common = [['Host', base.host], ...(options.userAgent ? [['User-Agent', options.userAgent]] : [])];
  const extra = network.headers.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const fields = (pairs: string[][]) => pairs.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const body = `{"name":"${'x'.repeat(UPLOAD_BYTES - 10)}`;
  const uploadHead = `POST ${path}/pets HTTP/1.1\r\n${fields([...common, ['Authorization', `Bearer ${options.apiKey}`], ['Content-Type', 'application/json'], ['Content-Length', String(body.length)]])}${extra}\r\n`;
  const after = `GET ${path}/pets?limit=1 HTTP/1.1\r\n${fields([...common, ['Accept', 'application/json']])}${extra}\r\n`;
  const result: CloseProbeResult = { problems: [], exchanges: [], notes: [] };

  const record = (upload: boolean, started: number, startedAt: number, reading: RawReading | { kind: 'error'; message: string }): Exchange => {
    const url = `${base.origin}${path}/pets${upload ? '' : '?limit=1'}`;
    const shown: Record<string, string> = Object.fromEntries(common);
    if (upload) Object.assign(shown, { Authorization: 'Bearer ***', 'Content-Type': 'application/json' });
    const exchange: Exchange = {
      seq: sink.nextSeq(),
      startedAt,
      durationMs: performance.now() - started,
      operationId: upload ? 'createPet' : 'listPets',
      raw: true,
      request: {
        method: upload ? 'POST' : 'GET',
        url: redact(url),
        headers: redactHeaders(shown, redact),
        ...(upload ? { body: `{"name":"xxx… (${UPLOAD_BYTES} bytes, never closed)`, bodyTruncated: true } : {}),
      },
      curl: redact(
        toCurl({ method: upload ? 'POST' : 'GET', url, ...(upload ? { shellHeaders: { Authorization: 'Bearer $API_KEY' } } : {}), secret: options.apiKey }),
      ),
    };
    // What went on the wire and what came back, for HTTP-001's rule (the upload's body cut, its size kept).
    const read = reading.kind === 'response' ? reading.bytes : reading.kind === 'error' ? Buffer.alloc(0) : reading.received;
    exchange.wire = {
      place: upload ? 'upload' : 'after-upload',
      run: 1,
      connection: 1,
      sent: wireBytes(Buffer.from(upload ? uploadHead + body : after, 'latin1'), redact),
      read: wireBytes(read, redact),
      ended: reading.kind === 'error' ? 'unreachable' : reading.kind,
    };
    if (reading.kind === 'response') {
      const text = reading.response.body.toString('utf8');
      exchange.response = { status: reading.response.status, headers: redactHeaders(reading.response.headers, redact) };
      if (text.length > 0) exchange.response.body = recordedBody(text, redact).body;
    } else exchange.error = { code: reading.kind, message: redact('message' in reading ? reading.message : `no whole response (${reading.kind})`) };
    sink.record(exchange);
    result.exchanges.push(exchange);
    return exchange;
  };

  sink.claim();
  sink.claim();
  const started = performance.now();
  const startedAt = Date.now();
  let connection;
  try {
    connection = await openRawConnection(base, timeoutMs, network);
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    record(true, started, startedAt, { kind: 'error', message: error.message });
    result.notes.push(`the close probe could not connect: ${redact(error.message)}`);
    return result;
  }
  try {
    await connection.write(uploadHead + body + after);
    const first = await connection.readResponse(timeoutMs);
    const uploaded = record(true, started, startedAt, first);
    if (first.kind !== 'response') {
      result.notes.push(`the oversized upload got no whole answer (${first.kind}): not judged`);
      return result;
    }
    const { response } = first;
    if (!response.connectionClose && !response.closeDelimited) {
      result.notes.push(`the oversized upload was answered ${response.status} without Connection: close: not judged here`);
      return result;
    }
    const next = await connection.readResponse(quietMs);
    if (next.kind === 'response') {
      const answered = record(false, started, startedAt, next);
      result.problems.push({
        kind: 'framing',
        expected: `no answer to a request sent after one whose answer (${response.status}) said Connection: close: that connection ends there (RFC 9112 §9.6)`,
        actual: `the request after it answered ${next.response.status} on the same connection`,
        exchanges: [uploaded, answered],
      });
    } else result.notes.push(`the oversized upload was answered ${response.status} with Connection: close, and nothing after it (as HTTP requires)`);
    return result;
  } finally {
    connection.close();
  }
}
