import { DIGITS, RATE_LIMIT_HEADERS, RESET_EPOCH_FROM, RESET_MILLIS_FROM, RETRY_AFTER_PAST_RESET_MS, parseHttpDate } from '../text/header-values.ts';
import type { RateLimitState } from './client-types.ts';

/** Added to every computed wait: Reset and Retry-After have one-second granularity. */
export const WAIT_MARGIN_MS = 250;
/** The shortest wait after a 429, even when the target says 0 or names a past date: never hammer. */
export const MIN_RETRY_WAIT_MS = 1000;
export const BACKOFF_BASE_MS = 1000;

const SECONDS = /^[0-9]+(?:\.[0-9]+)?$/;

/**
 * Lenient on purpose: the checks judge the headers, pacing only needs a usable number. Duplicated
 * values ("10, 10") are read conservatively (the smallest Limit/Remaining, the latest Reset); what does
 * not parse is ignored.
 */
function lenientInteger(raw: string | undefined, pick: (values: number[]) => number): number | undefined {
  if (raw === undefined) return undefined;
  // The usual value, one integer, read without splitting: three of them on every answer.
  if (DIGITS.test(raw)) {
    const value = Number(raw);
    return Number.isSafeInteger(value) ? value : undefined;
  }
  const values = raw.split(',').map((part) => part.trim());
  if (!values.every((v) => DIGITS.test(v))) return undefined;
  const numbers = values.map(Number);
  if (!numbers.every(Number.isSafeInteger)) return undefined;
  return pick(numbers);
}

/**
 * When the window resets, in epoch ms. The interface says Unix seconds; a value that can only be
 * milliseconds (≥ 1e11) or a delta (< 1e9, i.e. before 2001) is read as what it looks like, relative to
 * when the response arrived, so a server with that mistake is still not hammered.
 */
export function resetAtFrom(reset: number, receivedAt: number): number {
  if (reset >= RESET_MILLIS_FROM) return reset;
  if (reset < RESET_EPOCH_FROM) return receivedAt + reset * 1000;
  return reset * 1000;
}

export function readRateLimit(headers: Readonly<Record<string, string>>, receivedAt: number): RateLimitState {
  const limit = lenientInteger(headers[RATE_LIMIT_HEADERS.limit.wire], (v) => Math.min(...v));
  const remaining = lenientInteger(headers[RATE_LIMIT_HEADERS.remaining.wire], (v) => Math.min(...v));
  const reset = lenientInteger(headers[RATE_LIMIT_HEADERS.reset.wire], (v) => Math.max(...v));
  const resetAt = reset === undefined ? undefined : resetAtFrom(reset, receivedAt);
  return { limit, remaining, reset, resetAt, observedAt: receivedAt };
}

/** How long to wait before the next request, given the last answer: until Reset once Remaining is 0. */
export function pacingWait(state: RateLimitState | undefined, now: number): number {
  if (state?.remaining !== 0 || state.resetAt === undefined || state.resetAt <= now) return 0;
  return state.resetAt - now + WAIT_MARGIN_MS;
}

/** The wait a Retry-After value asks for, in ms from `now`: delay-seconds (fractions read plainly) or an HTTP-date. */
function retryAfterDelay(raw: string, now: number): number | undefined {
  const date = parseHttpDate(raw, now);
  const delay = SECONDS.test(raw) ? Number(raw) * 1000 : date === undefined ? undefined : date - now;
  return delay !== undefined && Number.isFinite(delay) ? delay : undefined;
}

/**
 * How a 429 contradicts itself, when its Retry-After ends more than RETRY_AFTER_PAST_RESET_MS after the
 * X-RateLimit-Reset it carries (RATE-012): "Retry-After 1795627692 s, X-RateLimit-Reset 2 s away".
 * Undefined when the two agree or either is missing or unreadable.
 */
export function retryAfterPastReset(headers: Readonly<Record<string, string>>, state: RateLimitState, now: number): string | undefined {
  const raw = headers['retry-after']?.trim();
  if (raw === undefined || state.resetAt === undefined || state.reset === undefined) return undefined;
  const delay = retryAfterDelay(raw, now);
  const untilReset = Math.max(0, state.resetAt - now);
  if (delay === undefined || delay <= untilReset + RETRY_AFTER_PAST_RESET_MS) return undefined;
  return `Retry-After: ${raw} asks for ${Math.ceil(delay / 1000)} s, but X-RateLimit-Reset: ${state.reset} is ${Math.ceil(untilReset / 1000)} s away`;
}

export interface RetryWait {
  ms: number;
  /** Which signal set the wait, for messages. */
  basis: string;
}

/**
 * The wait after an unintended 429 (the `attempt`-th, from 0): Retry-After as delay-seconds or an
 * HTTP-date (RFC 9110 §10.2.3), else X-RateLimit-Reset, else exponential backoff 1 s·2^attempt with up
 * to 50 % jitter so parallel workers do not come back in step.
 */
export function retryWait(headers: Readonly<Record<string, string>>, state: RateLimitState, attempt: number, now: number, random: () => number): RetryWait {
  const retryAfter = headers['retry-after']?.trim();
  if (retryAfter !== undefined) {
    // Fractional seconds are not delay-seconds, but their meaning is plain; anything else falls through.
    const delay = retryAfterDelay(retryAfter, now);
    if (delay !== undefined) {
      return { ms: Math.max(delay + WAIT_MARGIN_MS, MIN_RETRY_WAIT_MS), basis: `Retry-After: ${retryAfter}` };
    }
  }
  if (state.resetAt !== undefined && state.resetAt > now) {
    return { ms: Math.max(state.resetAt - now + WAIT_MARGIN_MS, MIN_RETRY_WAIT_MS), basis: `X-RateLimit-Reset: ${state.reset}` };
  }
  const base = BACKOFF_BASE_MS * 2 ** attempt;
  return { ms: Math.round(base * (1 + 0.5 * random())), basis: `backoff after 429 number ${attempt + 1}` };
}

/** Two Resets this close name one window (one-second granularity, a tick between two answers). */
const SAME_WINDOW_S = 1;
/**
 * A first 429 is held to the answer before it when that answer said at least this many requests were
 * left, and at least this share of its Limit: more than the run's own requests in flight (a few clients,
 * one request at a time each) could spend between two answers.
 */
export const BROKEN_PROMISE_FLOOR = 20;
export const BROKEN_PROMISE_SHARE = 0.25;

/**
 * The state an answer leaves: whether it answered the client's own key, and the 429s this client and
 * those sharing its memory got so far, whatever key they sent (a 429 to a variant of the key's form may
 * still be the key's, and may earn a ban: counting it only spares a later 429 from judgment).
 */
export function keyedState(state: RateLimitState, previous: RateLimitState | undefined, status: number, keyed: boolean): RateLimitState {
  const refusals = (previous?.refusals ?? 0) + (status === 429 ? 1 : 0);
  return { ...state, keyed, refusals };
}

/**
 * RATE-004 decided by one 429 in ordinary traffic: the first 429 the run got on its key, right after an
 * answer to that key of the same window (same Limit, same Reset) that said far more requests were left
 * than the run could have spent since. Undefined when the 429 is not that: an answer to another key or
 * to none, another window (a day's limit binding), a later 429 (a ban may follow one), or a promise
 * small enough for a race. The dedicated keys' 429s are judged by their tests, not here.
 */
export function brokenWindowPromise(before: RateLimitState | undefined, refused: RateLimitState): string | undefined {
  if (before?.keyed !== true || refused.keyed !== true || refused.refusals !== 1) return undefined;
  const { limit, remaining, reset, resetAt } = before;
  if (limit === undefined || remaining === undefined || reset === undefined || refused.reset === undefined) return undefined;
  if (refused.limit !== limit || Math.abs(refused.reset - reset) > SAME_WINDOW_S) return undefined;
  if (resetAt === undefined || resetAt <= refused.observedAt) return undefined;
  if (remaining < Math.max(BROKEN_PROMISE_FLOOR, Math.ceil(limit * BROKEN_PROMISE_SHARE))) return undefined;
  return (
    `the run's first 429 on its key came right after an answer of the same window (X-RateLimit-Limit ${limit}, ` +
    `X-RateLimit-Reset ${reset}) that said X-RateLimit-Remaining ${remaining}: the window refused requests its headers said were left`
  );
}
