import { isUtf8 } from 'node:buffer';
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { getGlobalDispatcher } from './undici-core.ts';
import { createAgent } from './interim-responses.ts';
import { DIRECT, networkSecrets } from './network-settings.ts';
import { HarnessError, isHarnessError } from '../errors.ts';
import { RATE_LIMIT_KEY, noAnswerReason } from './breaker.ts';
import { readJson, readJsonBytes, stringifyJson } from '../text/json.ts';
import type { Finding } from '../checks/check-types.ts';
import type { Exchange } from './exchange.ts';
import { brokenWindowPromise, keyedState, pacingWait, readRateLimit, retryAfterPastReset, retryWait } from './pacing.ts';
import { newestState } from './rate-limit-memory.ts';
import { type AuthorizationForms, AUTHORIZATION, type RecordedRequest, loggedConnectionOf, recordExchange, recordRequest } from './record.ts';
import { createRedactorOf } from './redact.ts';
import { buildWire, queryString } from './request-line.ts';
import { API_KEY_NAME } from './curl.ts';
import { createSerialQueue } from './serial-queue.ts';
import { exchangeOnce, type TransportOptions, type WireRequest, type WireResponse } from './transport.ts';
import type { ApiResponse, AuthOption, ClientClock, ClientOptions, RateLimitState, RequestOptions, SendRequest, TargetClient } from './client-types.ts';
import { defaultUserAgent, withUserAgent } from './user-agent.ts';

/** A 429 with more than this many requests said to be left contradicts the headers (a few spent by others on the key are allowed for; RATE-004 and RATE-011 judge). */
const CONTRADICTION_SLACK = 5;

const DEFAULTS = { timeoutMs: 10_000, maxResponseBytes: 2 * 1024 * 1024, maxRetries: 4, maxWaitMs: 120_000 };

const systemClock: ClientClock = { now: () => Date.now(), sleep: (ms, signal) => delay(ms, undefined, { signal }) };

/**
 * The one way suites talk to a target. Requests are serialised per client, paced by the target's
 * rate-limit headers, retried after an unintended 429, counted against the shared budget, checked by
 * every always-on check and recorded — redacted — for the reporter.
 */
export function createClient(options: ClientOptions): TargetClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    throw new HarnessError('ERR_CONFIG', 'the base URL is not a valid absolute URL');
  }
  const { apiKey, contract } = options;
  const keyVariable = options.keyVariable ?? API_KEY_NAME;
  const settings = { ...DEFAULTS, ...givenSettings(options) };
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const network = options.network ?? DIRECT;
  const redact = options.redactor ?? createRedactorOf([apiKey, ...networkSecrets(network)]);
  const userAgent = options.userAgent ?? defaultUserAgent();
  const enqueue = createSerialQueue();
  const transport: TransportOptions = {
    dispatcher: options.dispatcher ?? getGlobalDispatcher(),
    timeoutMs: settings.timeoutMs,
    maxResponseBytes: settings.maxResponseBytes,
    origin,
  };
  // Per-client state, owned by this closure; the queue makes every update sequential.
  let requestCount = 0;
  let lastSeq = 0;
  /** performance.now() when this client last received an answer: how long a dropped connection had been idle. */
  let lastAnsweredAt: number | undefined;
  /** Answers received, and drops of a connection the retry on a new one got answered: HTTP-001's counts. */
  let answered = 0;
  let drops = 0;
  /** 429s this client has retried: only the first may be judged against its Reset (later ones may be a ban). */
  let tooManySeen = 0;
  const shared = options.sharedRateLimit;
  let rateLimit: RateLimitState | undefined = shared?.read();

  function authorization(auth: AuthOption = 'valid'): AuthorizationForms | undefined {
    if (auth === 'none') return undefined;
    if (auth === 'valid') return { value: `Bearer ${apiKey}`, display: 'Bearer ***', shell: `Bearer $${keyVariable}` };
    return { value: auth.value, display: auth.display ?? auth.shown, shell: auth.shown };
  }

  /** Why the client will not wait `ms`: past the profile's waiting time or the client's longest wait. */
  function refusedWait(ms: number): string | undefined {
    if (options.waitDeadline !== undefined && clock.now() + ms > options.waitDeadline) return "past the time this run's profile allows for waiting";
    if (ms > settings.maxWaitMs) return `longer than the ${Math.round(settings.maxWaitMs / 1000)} s the client waits`;
    return undefined;
  }

  async function waitOrGiveUp(ms: number, reason: string): Promise<void> {
    if (ms <= 0) return;
    const refused = refusedWait(ms);
    if (refused)
      throw new HarnessError('ERR_RATE_LIMITED', redact(`the target at ${origin} asks for a wait of ${Math.ceil(ms / 1000)} s (${reason}), ${refused}`));
    const signal = options.abortSignal?.();
    options.onWait?.(ms, reason);
    try {
      await clock.sleep(ms, signal);
    } catch (error) {
      if (!signal?.aborted) throw error;
      throw new HarnessError('ERR_ABORTED', `stopped while waiting ${Math.ceil(ms / 1000)} s for the rate-limit window (${reason}): the test was cancelled`);
    }
  }

  /** One exchange on a connection opened for it alone, never a pooled socket the target may have closed. */
  async function onFreshConnection(wire: WireRequest): Promise<WireResponse> {
    const fresh = createAgent({ connections: 1, pipelining: 0 }, network);
    try {
      return await exchangeOnce(wire, { ...transport, dispatcher: fresh });
    } finally {
      void fresh.destroy().catch(() => undefined);
    }
  }

  function emit(exchange: Exchange, findings: Finding[], response?: ApiResponse): void {
    options.onExchange?.(exchange, findings, response);
  }

  async function attempt(
    wire: WireRequest,
    recorded: RecordedRequest,
    operationId: string | undefined,
    retries: number,
    dispatcher?: Dispatcher,
    afterDrop?: { error: string; idleMs: number | undefined },
  ) {
    const breakerKey = operationId ?? `${wire.method} outside the interface`;
    const broken = options.breaker?.openReason(breakerKey);
    if (broken) throw new HarnessError('ERR_OPERATION_BROKEN', redact(broken));
    options.budget?.take();
    requestCount += 1;
    const seq = options.nextSeq ? options.nextSeq() : ++lastSeq;
    const startedAt = clock.now();
    const started = performance.now();
    const base = { seq, startedAt, operationId, request: recorded, retries };
    let response: WireResponse;
    try {
      response = afterDrop === undefined ? await exchangeOnce(wire, dispatcher ? { ...transport, dispatcher } : transport) : await onFreshConnection(wire);
    } catch (error) {
      const failure = isHarnessError(error) ? error : new HarnessError('ERR_INTERNAL', String(error));
      const redacted = new HarnessError(failure.code, redact(failure.message));
      emit(recordExchange({ ...base, durationMs: performance.now() - started, error: redacted }, redact), []);
      // A dropped connection (a reset, a keep-alive socket the target closed) is tried once more on a
      // connection of its own before it counts: one blip is not a target that stopped answering.
      // The drop reaches the checks with the retry's answer (HTTP-001 judges it), never the budget.
      if (failure.code === 'ERR_TARGET_UNREACHABLE' && afterDrop === undefined) {
        const idleMs = lastAnsweredAt === undefined ? undefined : Math.round(started - lastAnsweredAt);
        return attempt(wire, recorded, operationId, retries, dispatcher, { error: redacted.message, idleMs });
      }
      if (failure.code === 'ERR_TARGET_TIMEOUT' || failure.code === 'ERR_TARGET_UNREACHABLE') {
        const last = afterDrop === undefined ? redacted.message : retriedOnce(afterDrop.error, redacted.message);
        options.breaker?.recordFailure(breakerKey, (inARow) => noAnswerReason(breakerKey, inARow, last));
      }
      throw redacted;
    }
    options.breaker?.recordSuccess(breakerKey);
    lastAnsweredAt = performance.now();
    answered += 1;
    if (afterDrop) drops += 1;
    const durationMs = lastAnsweredAt - started;
    const receivedAt = clock.now();
    const keyed = wire.headers[AUTHORIZATION] === `Bearer ${apiKey}`;
    const state = keyedState(readRateLimit(response.headers, receivedAt), newestState(rateLimit, shared?.read()), response.status, keyed);
    rateLimit = state;
    shared?.write(state);
    const { body, isJson, jsonError } = parseBody(response, settings.maxResponseBytes);
    const exchange = recordExchange({ ...base, durationMs, response, rateLimit: state }, redact);
    const { status, headers, text } = response;
    let findings: Finding[];
    try {
      const { method, url } = wire;
      const stray = options.strayBytes?.();
      const droppedBefore = afterDrop && { ...afterDrop, drops, answered };
      // Logged with the exchange (redacted), so that rejudge runs HTTP-001's connection checks again on it.
      if (stray || afterDrop) exchange.connection = loggedConnectionOf({ droppedBefore, strayBefore: stray }, redact);
      const context = { operationId, method, url, status, headers, text, body, isJson, jsonError, contract, now: receivedAt, exchangeSeq: seq, redact };
      const found = options.inspect?.({ ...context, droppedBefore, strayBefore: stray }) ?? [];
      findings = found.length === 0 ? found : found.map((f) => ({ ...f, expected: redact(f.expected), actual: redact(f.actual) }));
    } catch (error) {
      emit(exchange, []);
      throw error;
    }
    const result: ApiResponse = { status, headers, text, body, isJson, exchange, findings, sent: { url: wire.url, body: wire.body } };
    if (jsonError !== undefined) result.jsonError = redact(jsonError);
    emit(exchange, findings, result);
    return { result, state };
  }

  async function perform(request: SendRequest, requestOptions: RequestOptions): Promise<ApiResponse> {
    const auth = authorization(requestOptions.auth);
    const wire = buildWire(baseUrl, origin, request, requestOptions);
    wire.headers = withUserAgent(wire.headers, userAgent);
    if (auth) wire.headers[AUTHORIZATION] = auth.value;
    const recorded = recordRequest(wire, auth, redact, apiKey, keyVariable);
    if (requestOptions.pace !== false) {
      rateLimit = newestState(rateLimit, shared?.read());
      await waitOrGiveUp(pacingWait(rateLimit, clock.now()), 'X-RateLimit-Remaining: 0 until X-RateLimit-Reset');
    }
    for (let retries = 0; ; retries += 1) {
      const before = rateLimit;
      const { result, state } = await attempt(wire, recorded, request.operationId, retries, requestOptions.dispatcher);
      if (result.status !== 429 || requestOptions.retryOn429 === false) return result;
      // The run's first 429 right after its window promised far more is RATE-004's failure, not pacing.
      const broken = retries === 0 ? brokenWindowPromise(before, state) : undefined;
      if (broken) throw new HarnessError('ERR_RATE_LIMIT_CONTRADICTED', redact(broken));
      // A 429 while the target's own last headers said requests were left contradicts them: a few of those
      // and the suite stops waiting for this target (RATE-004 judges the contradiction itself).
      if (retries === 0 && (before?.remaining ?? 0) > CONTRADICTION_SLACK && before?.resetAt !== undefined && before.resetAt > clock.now()) {
        options.breaker?.recordFailure(
          RATE_LIMIT_KEY,
          (times) =>
            `the target answered 429 ${times} times while its X-RateLimit-Remaining said requests were left (last: ${before.remaining}); the suite stopped waiting for it (see RATE-004)`,
        );
        const contradicted = options.breaker?.openReason(RATE_LIMIT_KEY);
        if (contradicted) throw new HarnessError('ERR_RATE_LIMIT_CONTRADICTED', contradicted);
      }
      // An unintended 429 is the suite's pacing falling short, not the target's fault: wait, then retry.
      if (retries >= settings.maxRetries) {
        throw new HarnessError('ERR_RATE_LIMITED', `the target at ${origin} still answered 429 after ${settings.maxRetries} retries`);
      }
      const wait = retryWait(result.headers, state, retries, state.observedAt, random);
      // A first 429 whose Retry-After outlasts its own Reset by far, and more than the run may wait, is the
      // target's contradiction (RATE-012), not a limit the run could not wait out: said so, not INCOMPLETE.
      const contradiction = tooManySeen === 0 ? retryAfterPastReset(result.headers, state, state.observedAt) : undefined;
      tooManySeen += 1;
      if (contradiction && refusedWait(wait.ms)) {
        throw new HarnessError('ERR_RETRY_AFTER_CONTRADICTED', redact(`the target's first 429 on this key contradicts itself: ${contradiction}`));
      }
      await waitOrGiveUp(wait.ms, wait.basis);
    }
  }

  const send = (request: SendRequest, requestOptions: RequestOptions = {}): Promise<ApiResponse> => enqueue(() => perform(request, requestOptions));

  return {
    listPets: (query, requestOptions) => send({ method: 'GET', path: '/pets', operationId: 'listPets', query: queryString(query) }, requestOptions),
    createPet: async (body, requestOptions = {}) => {
      // rawBody wins in buildWire; serialising a body that is not sent would only cost time.
      const json = requestOptions.rawBody === undefined ? stringifyJson(body) : undefined;
      return send({ method: 'POST', path: '/pets', operationId: 'createPet', body: json }, requestOptions);
    },
    getPet: (petId, requestOptions) => send({ method: 'GET', path: `/pets/${encodeURIComponent(String(petId))}`, operationId: 'getPet' }, requestOptions),
    send,
    get requestCount() {
      return requestCount;
    },
    get rateLimit() {
      return rateLimit;
    },
  };
}

/** What the last failure was, when it came on the retry of a dropped connection. */
function retriedOnce(first: string, retry: string): string {
  return first === retry ? `${first}, and the same on one retry on a fresh connection` : `${first}; on one retry on a fresh connection: ${retry}`;
}

/** The one reading of every body: strict UTF-8, no duplicate keys, bounded depth, int64 exact. */
function parseBody(response: WireResponse, maxBytes: number): { body: unknown; isJson: boolean; jsonError?: string } {
  if (response.unreadable !== undefined) return { body: undefined, isJson: false, jsonError: response.unreadable };
  if (response.tooLarge) return { body: undefined, isJson: false, jsonError: `a body larger than ${maxBytes} bytes, the most the suite reads` };
  if (response.bytes.length === 0) return { body: undefined, isJson: false };
  // The transport decoded the text already: well-formed UTF-8 is read from it, not decoded again.
  const reading = isUtf8(response.bytes) ? readJson(response.text) : readJsonBytes(response.bytes);
  return reading.ok ? { body: reading.value, isJson: true } : { body: undefined, isJson: false, jsonError: reading.reason };
}

/** The settings with a default that the caller gave: they replace the defaults, undefined ones do not. */
function givenSettings(options: ClientOptions): Partial<typeof DEFAULTS> {
  const out: Partial<typeof DEFAULTS> = {};
  for (const key of Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>) {
    const value = options[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
