import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { request } from './undici-core.ts';
import { networkAdvice } from './network-advice.ts';
import { HarnessError, isHarnessError } from '../errors.ts';
import { decodeContent } from './content-coding.ts';

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** See RequestOptions.framing. */
  framing?: 'chunked' | 'split';
  /** See RequestOptions.bodyEncoding. */
  encoding?: 'utf8' | 'latin1';
  /** The request target as sent, when it is not the url's path and query (RequestOptions.absoluteForm). */
  requestTarget?: string;
}

/** Sends `target` as the request line's target, in place of the path undici would write. */
function withTarget(target: string): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => dispatch({ ...options, path: target }, handler);
}

/** Pieces a framed body is written in, and the pause between writes (so they leave as separate packets). */
const BODY_PIECES = 3;
const PIECE_PAUSE_MS = 15;

export interface WireResponse {
  status: number;
  /** Lower-case names; a duplicated header is joined with ', '. */
  headers: Record<string, string>;
  /** The body for display: bytes that are not UTF-8 show as U+FFFD. Judge `bytes`, never this. */
  text: string;
  /** The body as received (the first maxResponseBytes of it when `tooLarge`). */
  bytes: Buffer;
  /** The target sent (or declared) more than maxResponseBytes: reading stopped there. The target's
   * failure to answer within bounds, judged by the requirement that needed the body. */
  tooLarge?: true;
  /** Why the body could not be read as sent: a Content-Encoding unknown, corrupt, or too large decoded. */
  unreadable?: string;
}

export interface TransportOptions {
  dispatcher: Dispatcher;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Named in error messages: the origin says where, and never carries the key. */
  origin: string;
}

/**
 * What the message of an ERR_TARGET_UNREACHABLE says when bytes came back that are not an HTTP response:
 * an answer the target garbled, which a test must not take for no answer at all.
 */
export const NOT_AN_HTTP_RESPONSE = 'sent a response that is not valid HTTP';

/** Whether a failure is a garbled answer rather than none (see NOT_AN_HTTP_RESPONSE). */
export function isGarbledAnswer(error: { code: string; message: string }): boolean {
  return error.code === 'ERR_TARGET_UNREACHABLE' && error.message.includes(NOT_AN_HTTP_RESPONSE);
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
  UND_ERR_SOCKET: 'connection closed by the target',
  UND_ERR_CLOSED: 'connection closed',
};
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const CALLER_MISTAKES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED', 'ERR_INVALID_URL', 'ERR_INVALID_ARG_TYPE']);

/**
 * One HTTP exchange, nothing more: no retries, no redirects (undici's request follows none), the body
 * read to the end or, past maxResponseBytes, cut and marked `tooLarge`. The timeout covers the whole exchange, so a target that drips one byte
 * a second (which resets undici's per-chunk bodyTimeout) still ends on time.
 */
export async function exchangeOnce(wire: WireRequest, options: TransportOptions): Promise<WireResponse> {
  refuseInvalid(wire);
  // undici takes an EventEmitter as the signal and aborts on its 'abort' exactly as on an AbortSignal's
  // (before the answer, or destroying the body being read): a tenth of an AbortController's cost.
  const deadline = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.emit('abort');
  }, options.timeoutMs);
  try {
    const response = await request(wire.url, {
      dispatcher: wire.requestTarget === undefined ? options.dispatcher : options.dispatcher.compose(withTarget(wire.requestTarget)),
      method: wire.method as Dispatcher.HttpMethod,
      headers: wire.headers,
      body: wireBody(wire),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: deadline,
    });
    const headers = flattenHeaders(response.headers);
    const read = await readCapped(response.body, headers['content-length'], options);
    const decoded = read.tooLarge ? undefined : decodeContent(read.bytes, headers['content-encoding'], options.maxResponseBytes);
    const bytes = decoded?.ok ? decoded.bytes : read.bytes;
    const answer: WireResponse = { status: response.statusCode, headers, text: bytes.toString('utf8'), bytes };
    if (read.tooLarge || (decoded?.ok === false && decoded.tooLarge)) answer.tooLarge = true;
    if (decoded?.ok === false) answer.unreadable = decoded.reason;
    return answer;
  } catch (error) {
    throw toHarnessError(error, timedOut, options);
  } finally {
    clearTimeout(timer);
  }
}

/** The body as undici sends it: a string, the bytes of another encoding, or pieces written apart. */
function wireBody(wire: WireRequest): string | Buffer | Readable | undefined {
  if (wire.body === undefined || (wire.framing === undefined && wire.encoding === undefined)) return wire.body;
  const bytes = Buffer.from(wire.body, wire.encoding ?? 'utf8');
  if (wire.framing === undefined) return bytes;
  const size = Math.ceil(bytes.length / BODY_PIECES);
  return Readable.from(
    (async function* pieces() {
      for (let at = 0; at < bytes.length; at += size) {
        if (at > 0) await new Promise((resolve) => setTimeout(resolve, PIECE_PAUSE_MS));
        yield bytes.subarray(at, at + size);
      }
    })(),
    { objectMode: false },
  );
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Field values: visible Latin-1 and tabs, nothing that could end the line.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * What undici would refuse is refused before it reaches the connection pool: a request that fails
 * inside undici with UND_ERR_INVALID_ARG must never touch the pool the rest of the run shares.
 */
function refuseInvalid(wire: WireRequest): void {
  for (const [name, value] of Object.entries(wire.headers)) {
    if (!TOKEN.test(name) || !FIELD_VALUE.test(value)) {
      throw new HarnessError('ERR_INTERNAL', `the client refuses to send header ${JSON.stringify(name)}: its name or value is not valid HTTP`);
    }
  }
  try {
    new URL(wire.url);
  } catch {
    throw new HarnessError('ERR_INTERNAL', 'the client refuses to send a request whose URL does not parse');
  }
}

/** The body up to maxResponseBytes; past that the rest is not read (a declared size past it, nothing). */
export async function readCapped(
  body: Dispatcher.ResponseData['body'],
  declared: string | undefined,
  options: TransportOptions,
): Promise<{ bytes: Buffer; tooLarge: boolean }> {
  if (declared !== undefined && Number(declared) > options.maxResponseBytes) {
    body.destroy();
    return { bytes: Buffer.alloc(0), tooLarge: true };
  }
  // Listeners rather than `for await`: an async iterator costs a promise and a wrapper a chunk.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    /** Whether the body has been given (whole or cut) or refused: every body closes after its end. */
    let settled = false;
    body.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= options.maxResponseBytes) return;
      // Past the limit: the rest is never read, and the first maxResponseBytes are kept.
      settled = true;
      body.destroy();
      resolve({ bytes: Buffer.concat(chunks, options.maxResponseBytes), tooLarge: true });
    });
    body.once('end', () => {
      settled = true;
      resolve({ bytes: Buffer.concat(chunks, size), tooLarge: false });
    });
    body.once('error', (error) => {
      settled = true;
      reject(error);
    });
    // Closed with neither an end nor an error: cut short, as `for await` would say. Only then is the
    // error made: an Error captures a stack, and every body that ended closes too.
    body.once('close', () => {
      if (!settled) reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function errorCode(error: unknown): string | undefined {
  const seen = error as { code?: unknown; cause?: { code?: unknown }; errors?: Array<{ code?: unknown }> };
  for (const code of [seen?.code, seen?.cause?.code, seen?.errors?.[0]?.code]) {
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** undici's parser refused the bytes: an HPE_ code, or its HTTPParserError without one (a response line that is no status line). */
function parserRefused(error: unknown, code: string | undefined): boolean {
  const seen = error as { name?: unknown; cause?: { name?: unknown } };
  return code?.startsWith('HPE_') === true || seen?.name === 'HTTPParserError' || seen?.cause?.name === 'HTTPParserError';
}

/** Maps a transport failure to the HarnessError that says whose problem it is. No cause is attached:
 * undici's errors can quote the URL, and the URL can hold the key. */
function toHarnessError(error: unknown, timedOut: boolean, options: TransportOptions): HarnessError {
  if (isHarnessError(error)) return error;
  const code = errorCode(error);
  const where = `the target at ${options.origin}`;
  if (timedOut || (code !== undefined && TIMEOUTS.has(code))) {
    return new HarnessError('ERR_TARGET_TIMEOUT', `${where} did not complete an exchange within ${options.timeoutMs} ms`);
  }
  if (code !== undefined && code in UNREACHABLE) {
    return new HarnessError('ERR_TARGET_UNREACHABLE', `cannot reach ${where}: ${UNREACHABLE[code]} (${code})`);
  }
  if (parserRefused(error, code)) {
    const why = code ?? (error instanceof Error ? error.message : 'HTTPParserError');
    return new HarnessError('ERR_TARGET_UNREACHABLE', `${where} ${NOT_AN_HTTP_RESPONSE} (${why})`);
  }
  const message = error instanceof Error ? error.message : String(error);
  const advice = networkAdvice(code, message);
  if (advice) return new HarnessError('ERR_TARGET_UNREACHABLE', `cannot reach ${where}: ${advice}`);
  if (code !== undefined && CALLER_MISTAKES.has(code)) {
    return new HarnessError('ERR_INTERNAL', `the client could not send a request to ${options.origin}: ${message} (${code})`);
  }
  return new HarnessError('ERR_TARGET_UNREACHABLE', `the exchange with ${where} failed: ${message}${code ? ` (${code})` : ''}`);
}
