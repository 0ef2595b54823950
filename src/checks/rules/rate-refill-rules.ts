import { RATE_LIMIT_HEADERS } from '../../text/header-values.ts';
import { rateReadingOf, resetMs, retryAfterMs } from './rate-rules.ts';
import { type JudgmentRule, type RuleExchange, bad, fails, holds, numberParam } from './rule-kit.ts';

/**
 * RATE-008's window length, judged by behaviour on a key only the suite spends: spent to a 429 (a), whole
 * again (b: X-RateLimit-Remaining at least Limit − 1), spent again to a 429 (c), whole again (d, or the
 * time c promises it). Under every reasonable limiter of a window W two such whole windows are about W
 * apart: a fixed window (aligned or not) starts its next one W after the last, so d comes more than W
 * after a and W after the start of b's window; a sliding log is whole only once the requests spent after
 * b have all left it, W after them; a token bucket holding Limit L and refilling L each W needs (L − 1)·W/L
 * to refill from under one token. A "per-minute" limit whole again a second after its 429 is none of them.
 */

/** Reset and Date count whole seconds: the start of b's window read from them may be this late. */
const HEADER_SECONDS_MS = 2_000;
/** Timers and clocks: a limiter is never held to a bound closer than this. */
const TIMER_MS = 500;

/** Epoch ms the request left, and the answer arrived, by the suite's clock. */
const sentAt = (e: RuleExchange) => e.startedAt;
const arrivedAt = (e: RuleExchange) => e.startedAt + (e.durationMs ?? 0);

/** Whether an answer shows its key whole: served, with Remaining at least Limit − 1 (Limit: one counted after the answer). */
export function wholeWindow(e: RuleExchange): boolean {
  const { limit, remaining } = rateReadingOf(e);
  return e.status >= 200 && e.status < 300 && limit !== undefined && remaining !== undefined && remaining >= limit - 1;
}

/** The earliest a key may be whole again after `whole`, as two bounds that hold under every reasonable limiter. */
export interface RefillBound {
  /** A limiter's window cannot be whole twice within this of the 429 before the first (epoch ms: `fromRefused` + `sinceRefused`). */
  fromRefused: number;
  sinceRefused: number;
  /** The latest moment the window that `whole` shows may have started (epoch ms), and the bound from it. */
  fromStart: number;
  sinceStart: number;
}

/**
 * The bounds for a key spent to `refused` (a 429), then, after `before` (the last answer that did not show
 * it whole: `refused` itself or a request after it), whole at `whole`, on a window of `windowMs`.
 */
export function refillBound(refused: RuleExchange, before: RuleExchange, whole: RuleExchange, windowMs: number): RefillBound | undefined {
  const limit = rateReadingOf(whole).limit;
  if (limit === undefined || limit < 1) return undefined;
  // The window b shows began after `before` left and no later than b; its Reset (by the target's own
  // Date) says when, within whole seconds. A target lying there can only move the start back to `before`.
  const untilReset = resetMs(rateReadingOf(before));
  const byReset = untilReset === undefined ? sentAt(before) : arrivedAt(before) + Math.max(0, untilReset);
  const fromStart = Math.max(sentAt(before), Math.min(sentAt(whole), byReset));
  const roundTrip = before.durationMs ?? 0;
  const sinceStart = Math.min(windowMs - HEADER_SECONDS_MS - roundTrip, (windowMs * (limit - 1)) / limit) - TIMER_MS;
  return { fromRefused: sentAt(refused), sinceRefused: windowMs - TIMER_MS, fromStart, sinceStart };
}

/** Whether a key whole again at `at` keeps the bound: not sooner than either of its two. */
export function keepsBound(bound: RefillBound, at: number): boolean {
  return at - bound.fromRefused >= bound.sinceRefused && at - bound.fromStart >= bound.sinceStart;
}

/** The moment a 429 says its key is whole again and may be asked: the later of its Reset and its Retry-After. */
export function promisedWhole(tooMany: RuleExchange): number | undefined {
  const reading = rateReadingOf(tooMany);
  const [reset, retry] = [resetMs(reading), retryAfterMs(reading)];
  if (reset === undefined && retry === undefined) return undefined;
  return arrivedAt(tooMany) + Math.max(0, reset ?? 0, retry ?? 0);
}

const show = (e: RuleExchange, wire: string) => e.headers[wire] ?? '(none)';
const describe = (e: RuleExchange) =>
  `${e.status} with Limit ${show(e, RATE_LIMIT_HEADERS.limit.wire)}, Remaining ${show(e, RATE_LIMIT_HEADERS.remaining.wire)}, Reset ${show(e, RATE_LIMIT_HEADERS.reset.wire)}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const RATE_REFILL_RULES: readonly JudgmentRule[] = [
  {
    // The exchanges: the 429 (a), any answer between it and the key whole again, that answer (b), the 429
    // after spending it again (c), and the answer after c's promised refill (d) when one was sent.
    name: 'rate-window-length',
    readsBody: false,
    judge: () => holds("a key whole again no sooner than its window's length after its last whole window"),
    judgeAll(exchanges, params) {
      const windowS = numberParam(params.windowS);
      const refused = exchanges[0];
      const at = exchanges.findIndex((e, i) => i > 0 && wholeWindow(e));
      const [before, whole, again, next] = [exchanges[at - 1], exchanges[at], exchanges[at + 1], exchanges[at + 2]];
      if (windowS === undefined || windowS <= 0 || refused?.status !== 429 || !before || !whole || again?.status !== 429 || exchanges.length > at + 3)
        return bad('rate-window-length');
      const bound = refillBound(refused, before, whole, windowS * 1000);
      if (!bound) return bad('rate-window-length');
      const expected = `a ${windowS} s window: the key whole again (X-RateLimit-Remaining at least Limit − 1) no sooner than ${seconds(bound.sinceRefused)} after the 429 before its last whole window and ${seconds(bound.sinceStart)} after that window began`;
      const promise = promisedWhole(again);
      if (!next) {
        if (promise !== undefined && keepsBound(bound, promise)) return holds(expected);
        return fails(expected, `the 429 promised the key whole again sooner (${describe(again)}), and no request was sent then`);
      }
      if (!wholeWindow(next) || rateReadingOf(next).limit !== rateReadingOf(whole).limit || keepsBound(bound, arrivedAt(next))) return holds(expected);
      const since = `${seconds(arrivedAt(next) - bound.fromRefused)} after the 429 before it (${describe(refused)}) and ${seconds(arrivedAt(next) - sentAt(whole))} after the last whole window (${describe(whole)})`;
      return {
        ...fails(expected, `whole again ${since}: ${describe(next)}, after ${describe(again)}`),
        failedAt: exchanges.length - 1,
        alsoAt: at,
      };
    },
  },
];
