import { DIGITS, RATE_LIMIT_HEADERS, RESET_EPOCH_FROM, RESET_MILLIS_FROM, RETRY_AFTER_PAST_RESET_MS, parseHttpDate } from '../header-values.ts';
import type { RateLimitState } from './types.ts';

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
