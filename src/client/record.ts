import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readJson } from '../text/json.ts';
import { toCurl } from './curl.ts';
import type { Exchange } from './exchange.ts';
import { RECORDED_BODY_CHARS, type Redact, headersChanged, keptChanged, recordedBody, redactHeaders } from './redact.ts';
import type { RateLimitState } from './client-types.ts';
import type { WireRequest, WireResponse } from './transport.ts';

/** How the Authorization header of one request is sent, shown in reports, and written into curl. */
export interface AuthorizationForms {
  /** Sent on the wire; may hold the key. */
  value: string;
  /** Shown in the report, e.g. `Bearer ***`. */
  display: string;
  /** Written inside double quotes in the curl line, e.g. `Bearer $API_KEY`. */
  shell: string;
}

export const AUTHORIZATION = 'Authorization';

/** The request half of an Exchange plus its curl line. */
export type RecordedRequest = Exchange['request'] & { curl: string };

/**
 * The redacted request half of an exchange, built once per call and shared by its retries. The
 * Authorization value is never recorded: the report gets `display`, curl gets `shell`.
 */
export function recordRequest(
  wire: WireRequest,
  auth: AuthorizationForms | undefined,
  redact: Redact,
  secret: string,
  secretVariable?: string,
): RecordedRequest {
  const plainHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(wire.headers)) {
    if (name !== AUTHORIZATION) plainHeaders[name] = value;
  }
  const headers = auth ? { [AUTHORIZATION]: auth.display, ...plainHeaders } : plainHeaders;
  const curl = toCurl({
    method: wire.method,
    url: wire.url,
    headers: plainHeaders,
    shellHeaders: auth ? { [AUTHORIZATION]: auth.shell } : undefined,
    body: wire.body,
    requestTarget: wire.requestTarget,
    secret,
    secretVariable,
  });
  const record: RecordedRequest = {
    method: wire.method,
    url: redact(wire.url),
    headers: redactHeaders(headers, redact),
    curl: redact(curl),
  };
  if (wire.body !== undefined) {
    const kept = recordedBody(wire.body, redact);
    record.body = kept.body;
    if (kept.truncated) record.bodyTruncated = true;
    if (keptChanged(wire.body, kept)) record.redacted = true;
  }
  if (record.url !== wire.url) record.redacted = true;
  return record;
}

export interface ExchangeParts {
  seq: number;
  startedAt: number;
  durationMs: number;
  operationId: string | undefined;
  request: RecordedRequest;
  response?: WireResponse;
  rateLimit?: RateLimitState;
  error?: { code: string; message: string };
  retries: number;
}

/** One Exchange for the reporter; every string in it has been through `redact`. */
export function recordExchange(parts: ExchangeParts, redact: Redact): Exchange {
  const { curl, ...request } = parts.request;
  const exchange: Exchange = {
    seq: parts.seq,
    startedAt: parts.startedAt,
    durationMs: parts.durationMs,
    operationId: parts.operationId,
    request,
    curl,
  };
  if (parts.response) {
    const response: NonNullable<Exchange['response']> = {
      status: parts.response.status,
      headers: redactHeaders(parts.response.headers, redact),
    };
    let redacted = headersChanged(parts.response.headers, response.headers);
    if (parts.response.text.length > 0) {
      // A list is kept whole: the rules that decide a pass count and read its items (list-length, the
      // filter, the pets the run added), and a rule on a cut body proves nothing.
      const max = parts.operationId === 'listPets' ? LIST_BODY_CHARS : RECORDED_BODY_CHARS;
      const kept = recordedBody(parts.response.text, redact, max);
      const { body, truncated } = kept;
      if (keptChanged(parts.response.text, kept)) redacted = true;
      response.body = body;
      response.size = parts.response.bytes.length;
      if (truncated) response.bodyTruncated = true;
      const items = truncated && parts.operationId === 'listPets' ? wholeListItems(parts.response.text) : undefined;
      if (items !== undefined) response.items = items;
      const bytes = notUtf8Bytes(parts.response.bytes, redact, max);
      if (bytes) response.bytes = bytes;
    }
    if (redacted) response.redacted = true;
    exchange.response = response;
  }
  if (parts.rateLimit) {
    // Numbers read from the headers leave the worker too (the report's traffic): one that redaction
    // would not show as it is (eight of the key's digits in a row) is left out, as its header is.
    const shown = (value: number | undefined) => value !== undefined && redact(String(value)) === String(value);
    const { limit, remaining, reset } = parts.rateLimit;
    const rateLimit: NonNullable<Exchange['rateLimit']> = {};
    if (shown(limit)) rateLimit.limit = limit;
    if (shown(remaining)) rateLimit.remaining = remaining;
    if (shown(reset)) rateLimit.reset = reset;
    if (Object.keys(rateLimit).length > 0) exchange.rateLimit = rateLimit;
  }
  if (parts.error) exchange.error = { code: parts.error.code, message: redact(parts.error.message) };
  if (parts.retries > 0) exchange.retries = parts.retries;
  return exchange;
}

/** How many items a list body held, read before it is cut: undefined when it is not a JSON array. */
function wholeListItems(text: string): number | undefined {
  const reading = readJson(text);
  return reading.ok && Array.isArray(reading.value) ? reading.value.length : undefined;
}

/**
 * How much of a list body the log keeps: 100 animals with long names and every optional field fit. A
 * body longer than this is cut, and a rule that reads it leaves its test unproven on re-judging.
 */
export const LIST_BODY_CHARS = 256 * 1024;

/**
 * The bytes of a body that is not UTF-8, so the log keeps what the client judged (its text shows U+FFFD
 * where the bytes were, which re-judging cannot tell from a U+FFFD sent as such). Redacted as Latin-1 (one
 * character a byte, so the key's ASCII matches as in the text) and cut like the text.
 */
function notUtf8Bytes(bytes: Buffer, redact: Redact, max: number): { base64: string; sha256: string } | undefined {
  if (isUtf8(bytes)) return undefined;
  const kept = Buffer.from(recordedBody(bytes.toString('latin1'), redact, max).body, 'latin1');
  return { base64: kept.toString('base64'), sha256: createHash('sha256').update(kept).digest('hex') };
}

/**
 * What the client's connections did before a response, as the log keeps it (`_connection`): the stray
 * bytes redacted (a check quotes them), the drop's error already is.
 */
export function loggedConnectionOf(connection: NonNullable<Exchange['connection']>, redact: Redact): NonNullable<Exchange['connection']> {
  const { strayBefore, droppedBefore } = connection;
  return {
    ...(strayBefore ? { strayBefore: { bytes: redact(strayBefore.bytes), count: strayBefore.count } } : {}),
    ...(droppedBefore ? { droppedBefore } : {}),
  };
}
