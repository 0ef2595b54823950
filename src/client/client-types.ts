import type { StrayArrival } from './stray-bytes.ts';
import type { Dispatcher } from 'undici';
import type { NetworkSettings } from './network-settings.ts';
import type { CheckContext, Finding } from '../checks/check-types.ts';
import type { Contract } from '../contract/index.ts';
import type { RequestBudget } from './budget.ts';
import type { Breaker } from './breaker.ts';
import type { Exchange } from './exchange.ts';
import type { Redactor } from './redact.ts';

/**
 * The last rate-limit state seen on a key, shared by every client of a run. Test files run one after
 * another on a remote target, each with its own client; without this, a new client would learn that
 * the window is spent only from a 429.
 */
export interface RateLimitMemory {
  read(): RateLimitState | undefined;
  write(state: RateLimitState): void;
}

/** Time as the client sees it; tests inject one that records sleeps instead of sleeping. */
export interface ClientClock {
  now(): number;
  /** Rejects when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface ClientOptions {
  /** Ends in /v1 (a prefix path before it is fine), no trailing slash. */
  baseUrl: string;
  apiKey: string;
  /** The shell variable curl lines read apiKey from, by name: default API_KEY (EXHAUST_API_KEY for the exhaustion key). */
  keyVariable?: string;
  contract: Contract;
  /** Per request, for the whole exchange: connect, headers and body. Default 10 000. */
  timeoutMs?: number;
  /** Reading stops past this size with ERR_RESPONSE_TOO_LARGE. Default 2 MiB. */
  maxResponseBytes?: number;
  /** Shared request ceiling; take() is called before every send, retries included. */
  budget?: RequestBudget;
  clock?: ClientClock;
  /** Jitter source for backoff; tests pass a seeded one. */
  random?: () => number;
  /** Unintended 429s waited out per request before ERR_RATE_LIMITED. Default 4. */
  maxRetries?: number;
  /** Cap on one wait (Retry-After, Reset, backoff); a longer one is ERR_RATE_LIMITED. Default 120 000. */
  maxWaitMs?: number;
  /** Epoch ms after which the client waits no more (the run's allowance for waiting); a wait that would
   * pass it is ERR_RATE_LIMITED. Guards against headers that claim an exhausted window forever. */
  waitDeadline?: number;
  /**
   * The redactor of apiKey and the network's secrets, when the caller keeps one for its clients (built
   * once rather than per client: building one costs milliseconds). Default: built for this client.
   */
  redactor?: Redactor;
  /**
   * Called once per exchange (each retry and each transport failure included), already redacted; with the
   * response as the test gets it (unredacted) when there is one.
   */
  onExchange?: (exchange: Exchange, findings: Finding[], response?: ApiResponse) => void;
  /**
   * Judges each response (the harness passes the always-on checks, runChecks); its findings reach
   * onExchange and the response. Default: none. Transport does no checking of its own.
   */
  inspect?: (response: CheckContext) => Finding[];
  /** Told before every wait for a rate-limit window or a Retry-After (progress output). */
  onWait?: (ms: number, reason: string) => void;
  /** Circuit breakers shared by the run's clients (breaker.ts); none by default. */
  breaker?: Breaker;
  /** Numbers each exchange; clients that share one (a test file's) never give two exchanges one number. Default: per client. */
  nextSeq?: () => number;
  /** An undici Agent shared by the process, for keep-alive reuse. Default: undici's global dispatcher. */
  dispatcher?: Dispatcher;
  /**
   * What the dispatcher's connections received while no request was in flight (stray-bytes.ts), taken
   * before each response's checks: HTTP-001 judges it there.
   */
  strayBytes?: () => StrayArrival | undefined;
  /** How a connection of its own reaches the target (headers, proxy, CA); its secrets are redacted too. Default: direct. */
  network?: NetworkSettings;
  /** Rate-limit state shared with the run's other clients of the same key (remote targets). */
  sharedRateLimit?: RateLimitMemory;
  /** The signal that stops a wait for a rate-limit window (the run was interrupted, the test timed out). */
  abortSignal?: () => AbortSignal | undefined;
  /** Sent as User-Agent on every request; default `animal-store-conformance/<version>`, empty: none.
   * A request's own `user-agent` header wins (empty there: none for that request). */
  userAgent?: string;
}

/** What is sent as Authorization. `shown` is written into curl lines, inside double quotes so `$API_KEY`
 * expands, e.g. `Bearer ${API_KEY:0:8}`, and displayed in the report unless `display` says it in words
 * (`Bearer <the key, its last 8 characters rotated one place>`); neither may hold the key. */
export type AuthOption = 'valid' | 'none' | { value: string; shown: string; display?: string };

export interface RequestOptions {
  /** Default 'valid': Authorization: Bearer <apiKey>. */
  auth?: AuthOption;
  /** Raw query string appended as-is, after any query the call builds. */
  query?: string;
  /** Extra request headers. Authorization is not allowed here: use `auth`, which keeps it out of reports. */
  headers?: Record<string, string>;
  /** Sent verbatim instead of the serialised body. */
  rawBody?: string;
  /** Default application/json when a body is sent; null sends no Content-Type. */
  contentType?: string | null;
  /**
   * How the body goes on the wire (default: in one write, with Content-Length). `chunked`: chunked
   * transfer coding, in several chunks; `split`: with Content-Length, in several writes a moment apart.
   */
  framing?: 'chunked' | 'split';
  /** The body's bytes: UTF-8 (default), or latin1, one byte per character, to send bytes that are not UTF-8. */
  bodyEncoding?: 'utf8' | 'latin1';
  /** A connection pool of the test's own (e.g. one undici Client: every request on one connection). */
  dispatcher?: Dispatcher;
  /**
   * The request target in absolute-form (`GET http://host/v1/pets HTTP/1.1`), as clients send to a proxy;
   * RFC 9112 §3.2.2 has servers accept it. `{ authority }` writes another authority into it (a malformed
   * one, `[`, that no URL parser accepts). Retries keep the form; the curl line uses --request-target.
   */
  absoluteForm?: boolean | { readonly authority: string };
  /** Default true: wait out an unintended 429 and retry. False returns the 429 (exhaustion tests). */
  retryOn429?: boolean;
  /** Default true: wait for Reset when the last Remaining was 0. False sends at once (exhaustion tests). */
  pace?: boolean;
}

export interface SendRequest {
  method: string;
  /** Relative to baseUrl, starting with '/'. */
  path: string;
  operationId?: string;
  /** Raw query string without the '?'. */
  query?: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface ApiResponse {
  status: number;
  /** Lower-case names; a duplicated header is joined with ', '. */
  headers: Record<string, string>;
  text: string;
  /** parseJson(text) when it parses (int64 beyond 2^53 as bigint), else undefined. */
  body: unknown;
  isJson: boolean;
  /** Why a non-empty body is not JSON (not UTF-8 at byte N, a duplicate key, too deep, too large). */
  jsonError?: string;
  /** The redacted record of this exchange, as handed to onExchange. */
  exchange: Exchange;
  /**
   * The request as it went on the wire, before redaction: what a judgment reads while the test runs, as it
   * reads the answer as received. The record (`exchange`) keeps both redacted; unprovableRule judges it again.
   */
  sent: { url: string; body: string | undefined };
  /** Always-on checks that failed on this response. */
  findings: Finding[];
}

/** The last X-RateLimit-* values seen, as far as they parsed. */
export interface RateLimitState {
  limit: number | undefined;
  remaining: number | undefined;
  /** The header value as sent. */
  reset: number | undefined;
  /** Epoch ms the window resets, read from `reset` whether it was seconds, milliseconds or a delta. */
  resetAt: number | undefined;
  /** Epoch ms the response carrying these values arrived. */
  observedAt: number;
  /** The answer was to a request carrying the client's own key (not an anonymous or a bogus one). */
  keyed?: boolean;
  /** 429s the client (and those sharing its memory) got so far in the run, this answer's included: only the first is held to a window's word (later ones may be a ban). */
  refusals?: number;
}

export type Query = Record<string, string | number | bigint | undefined>;

export interface TargetClient {
  listPets(query?: Query, options?: RequestOptions): Promise<ApiResponse>;
  /** `body` is serialised with stringifyJson (bigint exact) unless options.rawBody is given. */
  createPet(body: unknown, options?: RequestOptions): Promise<ApiResponse>;
  /** A string petId goes into the path as-is (percent-encoded), so tests can send "abc" or "1.5". */
  getPet(petId: bigint | number | string, options?: RequestOptions): Promise<ApiResponse>;
  send(request: SendRequest, options?: RequestOptions): Promise<ApiResponse>;
  /** Requests actually sent by this client, retries included. */
  readonly requestCount: number;
  readonly rateLimit: RateLimitState | undefined;
}
