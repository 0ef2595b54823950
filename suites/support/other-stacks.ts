import { randomBytes } from 'node:crypto';
import type { ApiResponse } from '../../src/client/index.ts';
import { toCurl } from '../../src/client/curl.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { type NetworkSettings, networkSecrets } from '../../src/client/network-settings.ts';
import type { RawConnection } from '../../src/client/raw-http.ts';
import { type RawAnswer, exchangeOn, sendRawRequest } from '../../src/client/raw-request.ts';
import { createRedactorOf, headersChanged, keptChanged, recordedBody, redactHeaders } from '../../src/client/redact.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { readJsonBytes } from '../../src/text/json.ts';

/**
 * Clients the suite's undici is not: their header fields in the order and letter case they really write
 * them, sent by the second HTTP stack (src/client/raw-request.ts), each request on a fresh connection.
 * undici always writes a lower-case `host` first, then `connection`: a target may tell it from every
 * other client by that alone, so changing the User-Agent over undici proves nothing.
 */
export interface StackShape {
  label: string;
  /** The fields in order; `authorization` is the Authorization value, when the request has one. */
  fields(host: string, authorization: string | undefined): Array<[string, string]>;
}

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** curl 8: Host, User-Agent, Accept: *\/*, then what -H adds. */
export const CURL: StackShape = {
  label: 'as curl writes it (Host, User-Agent, Accept: */*), on a fresh connection',
  fields: (host, authorization) => [
    ['Host', host],
    ['User-Agent', 'curl/8.5.0'],
    ['Accept', '*/*'],
    ...(authorization === undefined ? [] : [['Authorization', authorization] as [string, string]]),
  ],
};

/** Chrome's fetch() over HTTP/1.1, same-origin: its order, its lower-case client hints. */
export const CHROME: StackShape = {
  label: "as Chrome's fetch() writes it, on a fresh connection",
  fields: (host, authorization) => [
    ['Host', host],
    ['Connection', 'keep-alive'],
    ['sec-ch-ua', '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"'],
    ['sec-ch-ua-mobile', '?0'],
    ...(authorization === undefined ? [] : [['Authorization', authorization] as [string, string]]),
    ['User-Agent', CHROME_UA],
    ['Accept', 'application/json, text/plain, */*'],
    ['sec-ch-ua-platform', '"Windows"'],
    ['Sec-Fetch-Site', 'same-origin'],
    ['Sec-Fetch-Mode', 'cors'],
    ['Sec-Fetch-Dest', 'empty'],
    ['Accept-Encoding', 'gzip, deflate, br'],
    ['Accept-Language', 'en-US,en;q=0.9'],
  ],
};

/** Which key a request carries: the run's, none, or one the target never issued. */
export type RawAuth = 'valid' | 'none' | 'wrong';

/** A key no target issued, of a common form; random per run so that no target can list it. Never the run's key. */
export function wrongKey(): string {
  return `sk_${randomBytes(16).toString('hex')}`;
}

/** How a raw request was sent: which client it imitates, and through which network path. */
export interface RawRoute {
  shape: StackShape;
  network: NetworkSettings;
  /** Said after the shape's label: `through the second vantage point`, or nothing on the run's own path. */
  via?: string;
}

/**
 * Sends `path` (after the base URL, with its query) by the second stack, records the exchange as the run's
 * (the budget claimed first), and returns it as the client would have (no always-on check runs on it).
 */
export async function askRaw(
  ctx: ConformanceContext,
  route: RawRoute,
  path: string,
  auth: RawAuth,
  wrong: string,
  /** A connection held open to send it on (and left open); otherwise a fresh one. */
  held?: RawConnection,
): Promise<ApiResponse> {
  const { run } = ctx;
  const url = `${run.baseUrl.replace(/\/+$/, '')}${path}`;
  const authorization = auth === 'valid' ? `Bearer ${run.apiKey}` : auth === 'wrong' ? `Bearer ${wrong}` : undefined;
  const fields = route.shape.fields(new URL(url).host, authorization);
  const redact = createRedactorOf([run.apiKey, ...networkSecrets(run.network), ...networkSecrets(route.network)]);
  ctx.rawExchanges.claim();
  const started = performance.now();
  const startedAt = Date.now();
  const request = { url, method: 'GET', fields, timeoutMs: run.timeoutMs, network: route.network, maxResponseBytes: 2 * 1024 * 1024 };
  let answer = held ? await exchangeOn(held, request) : await sendRawRequest(request);
  // A fresh connection closed before any answer is tried once more, as the client retries a drop: one
  // blip of the network is not an answer that differs (a held connection's close is the target's to judge).
  if (!held && answer.kind === 'closed') answer = await sendRawRequest(request);
  const shown = Object.fromEntries(fields.map(([name, value]) => [name, name === 'Authorization' ? shownAuthorization(auth) : value]));
  const shownUrl = redact(url);
  const exchange: Exchange = {
    seq: ctx.rawExchanges.nextSeq(),
    startedAt,
    durationMs: performance.now() - started,
    operationId: path.startsWith('/pets/') ? 'getPet' : 'listPets',
    raw: true,
    request: { method: 'GET', url: shownUrl, headers: redactHeaders(shown, redact), ...(shownUrl !== url ? { redacted: true as const } : {}) },
    curl: redact(
      toCurl({
        method: 'GET',
        url,
        headers: Object.fromEntries(fields.filter(([name]) => name !== 'Authorization')),
        ...(auth === 'valid' ? { shellHeaders: { Authorization: 'Bearer $API_KEY' } } : {}),
        ...(auth === 'wrong' ? { shellHeaders: { Authorization: `Bearer ${wrong}` } } : {}),
        secret: run.apiKey,
      }),
    ),
  };
  const response = toApiResponse(answer, exchange, redact, { url, body: undefined });
  ctx.rawExchanges.record(exchange);
  return response;
}

function shownAuthorization(auth: RawAuth): string {
  return auth === 'valid' ? 'Bearer ***' : 'Bearer <a key the target never issued>';
}

/** The raw answer as the client would hand it to a test; no answer at all reads as status 0, no body. */
function toApiResponse(answer: RawAnswer, exchange: Exchange, redact: (text: string) => string, sent: ApiResponse['sent']): ApiResponse {
  if (answer.kind !== 'response') {
    exchange.error = { code: answer.kind, message: redact(answer.detail) };
    return { status: 0, headers: {}, text: '', body: undefined, isJson: false, exchange, findings: [], sent };
  }
  const text = answer.bytes.toString('utf8');
  exchange.response = { status: answer.status, headers: redactHeaders(answer.headers, redact) };
  // Redaction changed what the log keeps of the answer: a rule that read it as received is asked again on it.
  let redacted = headersChanged(answer.headers, exchange.response.headers);
  if (text.length > 0) {
    const kept = recordedBody(text, redact);
    exchange.response.body = kept.body;
    if (kept.truncated) exchange.response.bodyTruncated = true;
    if (keptChanged(text, kept)) redacted = true;
  }
  if (redacted) exchange.response.redacted = true;
  const base = { status: answer.status, headers: answer.headers, text, exchange, findings: [], sent };
  if (answer.unreadable !== undefined) return { ...base, body: undefined, isJson: false, jsonError: answer.unreadable };
  if (answer.bytes.length === 0) return { ...base, body: undefined, isJson: false };
  const reading = readJsonBytes(answer.bytes);
  return reading.ok ? { ...base, body: reading.value, isJson: true } : { ...base, body: undefined, isJson: false, jsonError: reading.reason };
}

const VANTAGE = 'through the second vantage point (--vantage-proxy)';

/**
 * The routes of the differential requests: curl and a browser on the run's own network path, and again
 * through the second vantage point when one is given (an address the target has not seen the suite at).
 */
export function otherRoutes(network: NetworkSettings): RawRoute[] {
  const own: RawRoute[] = [
    { shape: CURL, network },
    { shape: CHROME, network },
  ];
  if (network.vantageProxy === undefined) return own;
  const vantage: NetworkSettings = { ...network, proxy: network.vantageProxy };
  return [...own, { shape: CURL, network: vantage, via: VANTAGE }, { shape: CHROME, network: vantage, via: VANTAGE }];
}
