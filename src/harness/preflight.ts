import { writeFileSync } from 'node:fs';
import type { Dispatcher } from 'undici';
import { request } from '../client/undici-core.ts';
import { createAgent } from '../client/interim-responses.ts';
import { createRedactor } from '../client/redact.ts';
import { networkAdvice } from '../client/network-advice.ts';
import type { NetworkSettings } from '../client/network-settings.ts';
import { defaultUserAgent, withUserAgent } from '../client/user-agent.ts';
import { HarnessError } from '../errors.ts';
import { readJsonBytes } from '../text/json.ts';
import type { Limits, PlanKey, PlanName } from '../config/plans.ts';
import { planMismatch } from './plan-mismatch.ts';

/** What the preflight saw of one answer: enough to tell a wrong setup from a faulty Animal Store. */
export interface PreflightAnswer {
  status: number;
  contentType: string | undefined;
  /** X-RateLimit-Limit was present: every Animal Store answer carries it, a stranger's rarely does. */
  rateLimited: boolean;
  /** Its value, when present: a --plan off by exactly another plan's row is caught from it. */
  limit?: string;
  location: string | undefined;
  retryAfter: string | undefined;
  body: string;
  /** The body read as the suite reads every body (readJsonBytes): strict UTF-8, no duplicate keys. */
  json: boolean;
  /** That reading is a JSON array (a listPets answer). */
  list: boolean;
  /** The body was longer than the preflight reads: it cannot say whether it was JSON. */
  truncated?: boolean;
}

export interface PreflightOptions {
  baseUrl: string;
  apiKey: string;
  /** --exhaust-key: checked once too, so a refused second key is a setup error, not 401s in RATE-*. */
  exhaustApiKey?: string;
  /** --plan-key: each checked once, like the exhaustion key. */
  planKeys?: readonly PlanKey[];
  /** --plan, with an Enterprise key's stated limits: checked against the main key's first X-RateLimit-Limit. */
  plan?: { name: PlanName; limits?: Limits };
  timeoutMs: number;
  /** Each request is claimed here (one byte a request), so the preflight counts in the budget. */
  ledgerPath: string;
  /** The longest wait for a 429's Retry-After before the preflight goes on regardless. */
  maxWaitMs?: number;
  signal?: AbortSignal;
  /** Headers, proxy and CA of the run (--header, --proxy, --ca-cert, --insecure). */
  network?: NetworkSettings;
  /** The run's User-Agent, as every request of the suite sends it (undefined: the default; empty: none). */
  userAgent?: string;
}

const EXCERPT = 120;
const BODY_CAP = 64 * 1024;

/**
 * Turns a wrong setup into one clear line before any test runs: the target unreachable, the key
 * refused, a base URL that is not the API, a target that is not an Animal Store at all. It is
 * conservative: anything an Animal Store with faults could send (a 5xx, a schema error, a 404 with
 * rate-limit headers) passes, and the suite then says what is wrong with it.
 */
export async function preflight(options: PreflightOptions): Promise<void> {
  // Connections that read an unsolicited 100 Continue, as the suites' do.
  const dispatcher = createAgent({}, options.network);
  try {
    const withAgent = { ...options, dispatcher };
    const first = await preflightKey(withAgent, 'the key');
    const mismatch = options.plan && first ? planMismatch(first.limit, options.plan.name, options.plan.limits) : undefined;
    if (mismatch) throw mismatch;
    if (options.exhaustApiKey) await preflightKey({ ...withAgent, apiKey: options.exhaustApiKey }, 'the exhaustion key', '--exhaust-key / EXHAUST_API_KEY');
    for (const { plan, key } of options.planKeys ?? []) await preflightKey({ ...withAgent, apiKey: key }, `the ${plan}-plan key`, '--plan-key / ASC_PLAN_KEY');
  } finally {
    await dispatcher.destroy();
  }
}

type Connected = PreflightOptions & { dispatcher: Dispatcher };

/** `whose` names a second key and `flag` where it was given; the main key's refusal keeps its own wording. */
async function preflightKey(options: Connected, whose: string, flag?: string): Promise<PreflightAnswer | undefined> {
  const redact = createRedactor(options.apiKey);
  let answer = await fetchAnswer(`${options.baseUrl}/pets?limit=1`, options);
  if (answer.status === 429) {
    // Rate limiting is what an Animal Store does: wait as asked (bounded), then look once more.
    await sleep(Math.min(retryAfterMs(answer.retryAfter) ?? 1_000, options.maxWaitMs ?? 30_000), options.signal);
    answer = await fetchAnswer(`${options.baseUrl}/pets?limit=1`, options);
    if (answer.status === 429) return undefined;
  }
  // Before judging the answer: the API one level down (the usual missing /v1) is a setup mistake, not 19 failures.
  const located = await locateApi(answer, options);
  if (located) throw new HarnessError('ERR_WRONG_BASE_URL', redact(located));
  // The excerpt of the body a refusal quotes is cut: the body is redacted whole before that.
  const refusal = classify({ ...answer, body: redact(answer.body) }, options.baseUrl);
  if (!refusal) return answer;
  if (refusal.code === 'ERR_KEY_REFUSED' && flag !== undefined)
    refusal.message = refusal.message.replace('the key was refused', `${whose} (${flag}) was refused`).replace('--api-key / API_KEY', flag);
  if (refusal.code === 'ERR_WRONG_BASE_URL' && answer.status === 404) {
    const hint = await elsewhere(options);
    if (hint) refusal.message += `; ${hint}`;
  }
  throw new HarnessError(refusal.code, redact(refusal.message));
}

/** Why this answer to listPets means a wrong setup, or undefined when the suite should go on. */
export function classify(
  answer: PreflightAnswer,
  baseUrl: string,
): { code: 'ERR_KEY_REFUSED' | 'ERR_NOT_ANIMAL_STORE' | 'ERR_WRONG_BASE_URL'; message: string } | undefined {
  const where = `GET ${baseUrl}/pets?limit=1`;
  if (answer.status === 401) {
    return { code: 'ERR_KEY_REFUSED', message: `the key was refused: ${where} answered 401${briefBody(answer)} (check --api-key / API_KEY)` };
  }
  // A refusal without the rate-limit headers every Animal Store answer carries comes from something in front of it.
  if ((answer.status === 403 || answer.status === 407) && !answer.rateLimited) {
    return {
      code: 'ERR_KEY_REFUSED',
      message: `${where} answered ${answer.status} without rate-limit headers${briefBody(answer)}: something in front of the API refused the request (a gateway or access proxy? pass what it wants with --header 'Name: value'; a proxy's credentials go in its URL)`,
    };
  }
  if (answer.status >= 300 && answer.status < 400) {
    const to = answer.location ? ` to ${answer.location}` : '';
    return {
      code: 'ERR_WRONG_BASE_URL',
      message: `${where} answered ${answer.status}, a redirect${to}; redirects are not followed (the key must not travel): check --target (a gateway or sign-in page in front of the API? pass its token with --header)`,
    };
  }
  // An Animal Store answers everything with rate-limit headers: a bare 404 is another server or path.
  if (answer.status === 404 && !answer.rateLimited) {
    return { code: 'ERR_WRONG_BASE_URL', message: `${where} answered 404${briefBody(answer)}: check --target (the base URL ends in /v1)` };
  }
  // A 2xx that is not JSON is a stranger's page, unless it carries the rate-limit headers every Animal
  // Store answer carries: then it is an Animal Store with a broken body, and the suites say so.
  if (answer.status >= 200 && answer.status < 300 && !answer.truncated && !answer.json && !answer.rateLimited) {
    return {
      code: 'ERR_NOT_ANIMAL_STORE',
      message: `not an Animal Store API: ${where} answered ${answer.status} ${answer.contentType ?? 'without a Content-Type'}, not JSON${briefBody(answer)}`,
    };
  }
  return undefined;
}

/** Where the API might answer instead: the origin's /v1/pets or /pets, when that differs from --target. */
async function elsewhere(options: Connected): Promise<string | undefined> {
  const base = new URL(options.baseUrl);
  const candidates = [`${base.origin}/v1`, base.origin].filter((url) => url !== options.baseUrl);
  for (const candidate of candidates.slice(0, 1)) {
    const answer = await fetchAnswer(`${candidate}/pets?limit=1`, options).catch(() => undefined);
    if (answer && answer.status !== 404 && (answer.rateLimited || answer.json)) return `${candidate}/pets answers ${answer.status}: try --target ${candidate}`;
  }
  return undefined;
}

/**
 * When `<target>/pets` is not the API (a 404 or a redirect) but a path the answer points to is, the
 * corrected --target. Candidates: a redirect's Location, `<target>/v1`, and a base path ending in /v1
 * that the answer's body names. A candidate counts only if its listPets answers as an Animal Store does
 * (2xx, a JSON list, rate-limit headers), so a faulty store whose listPets 404s is still tested.
 */
export async function locateApi(answer: PreflightAnswer, options: Connected): Promise<string | undefined> {
  if (answer.status !== 404 && !(answer.status >= 300 && answer.status < 400)) return undefined;
  const base = new URL(options.baseUrl);
  const candidates = new Set<string>();
  const from = (path: string) => {
    try {
      const url = new URL(path.replace(/\/pets(\?.*)?$/, ''), `${base.origin}/`);
      // The key never travels to another origin.
      if (url.origin === base.origin) candidates.add(`${url.origin}${url.pathname.replace(/\/+$/, '')}`);
    } catch {
      /* not a path */
    }
  };
  if (answer.location) from(answer.location);
  candidates.add(`${options.baseUrl.replace(/\/+$/, '')}/v1`);
  for (const match of answer.body.slice(0, 4_096).matchAll(/(?:^|[\s"'(])(\/[\w.~-]+(?:\/[\w.~-]+)*\/v1)(?=\/|[\s"'),.]|$)/g)) {
    if (match[1]) from(match[1]);
  }
  candidates.delete(options.baseUrl.replace(/\/+$/, ''));
  for (const candidate of [...candidates].slice(0, 3)) {
    const seen = await fetchAnswer(`${candidate}/pets?limit=1`, options).catch(() => undefined);
    if (seen && seen.status >= 200 && seen.status < 300 && seen.rateLimited && seen.list) {
      return `GET ${options.baseUrl}/pets?limit=1 answered ${answer.status}, but ${candidate}/pets is the Animal Store API: run again with --target ${candidate}`;
    }
  }
  return undefined;
}

async function fetchAnswer(url: string, options: Connected): Promise<PreflightAnswer> {
  writeFileSync(options.ledgerPath, '.', { flag: 'a' });
  const origin = new URL(url).origin;
  try {
    const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
    const response = await request(url, {
      dispatcher: options.dispatcher,
      method: 'GET',
      headers: withUserAgent({ authorization: `Bearer ${options.apiKey}`, accept: 'application/json' }, options.userAgent ?? defaultUserAgent()),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: AbortSignal.any(signals),
    });
    const { bytes, truncated } = await readCapped(response.body, BODY_CAP);
    const reading = truncated ? undefined : readJsonBytes(bytes);
    const header = (name: string) => {
      const value = response.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    return {
      status: response.statusCode,
      contentType: header('content-type'),
      rateLimited: header('x-ratelimit-limit') !== undefined,
      limit: header('x-ratelimit-limit'),
      location: header('location'),
      retryAfter: header('retry-after'),
      body: bytes.toString('utf8'),
      json: reading?.ok === true,
      list: reading?.ok === true && Array.isArray(reading.value),
      truncated,
    };
  } catch (cause) {
    const reason = describeNetworkError(cause);
    const code = reason === 'no answer in time' ? 'ERR_TARGET_TIMEOUT' : 'ERR_TARGET_UNREACHABLE';
    throw new HarnessError(code, `cannot reach the target ${origin}: ${reason}`);
  }
}

/** The body, at most `cap` bytes: a preflight never holds a huge answer. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, cap: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > cap) {
      body.destroy();
      return { bytes: Buffer.concat(chunks).subarray(0, cap), truncated: true };
    }
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

function briefBody(answer: PreflightAnswer): string {
  const text = answer.body.replace(/\s+/g, ' ').trim();
  if (!text) return '';
  return `: ${text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text}`;
}

function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1_000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export function describeNetworkError(cause: unknown): string {
  const error = cause as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = error.code ?? error.cause?.code;
  if (error.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'no answer in time';
  const advice = networkAdvice(code, `${error.message ?? ''} ${error.cause?.message ?? ''}`);
  if (advice) return advice;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  return code ?? 'network error';
}
