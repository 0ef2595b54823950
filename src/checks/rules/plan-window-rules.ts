import { SAME_WINDOW_S, rateReadingOf } from './rate-rules.ts';
import { type JudgmentRule, type RuleExchange, bad, holds, numberParam } from './rule-kit.ts';

/**
 * RATE-008's count of a plan key's window (suites/support/plan-window.ts spends it): a first reading,
 * then bursts of what Remaining promised and one more, each burst's requests sent at once. The window
 * the anchor names is counted from the burst; when it turned on the way, the count goes on in the next
 * window from the suite's requests that reached it. One pure function decides both what the suite does
 * next and, replayed over the log, whether the count held.
 */

/** One response of the spending, as the count reads it. */
export interface PlanReading {
  status: number;
  limit: number | undefined;
  remaining: number | undefined;
  /** Unix seconds, as sent. */
  reset: number | undefined;
}

/** What one burst showed of the window being counted. */
export interface PlanWindowStep {
  /** Index, among all readings (the first one 0), of the reading the window is counted from. */
  anchor: number;
  served: number;
  refused: number;
  /** What the anchor's Remaining promised; undefined when it said nothing usable. */
  promised: number | undefined;
  /** Requests the window served, all the suite's: known when the suite opened the window. */
  total: number | undefined;
  /** Where the count breaks the plan (indexes among all readings): undefined when it holds. */
  broken?: { expected: string; actual: string; failedAt: number; alsoAt: number };
  /**
   * What follows: `done` (a 429 ended a window the suite opened), `not-opened` (a 429 ended a window
   * others may have spent too), `turned` (the next burst counts the next window), `lost` (it turned, and
   * no request of the suite's reached the next window served), `no-promise` (no usable Remaining).
   */
  next: 'done' | 'not-opened' | 'turned' | 'lost' | 'no-promise';
  /** When it turned: the index of the reading the next window is counted from. */
  following?: number;
}

export function planReadingOf(e: RuleExchange): PlanReading {
  const { limit, remaining, reset } = rateReadingOf(e);
  return { status: e.status, limit, remaining, reset };
}

function sameWindow(anchor: PlanReading, reading: PlanReading): boolean {
  return anchor.reset !== undefined && reading.reset !== undefined && Math.abs(reading.reset - anchor.reset) <= SAME_WINDOW_S;
}

/**
 * The suite's requests a window holds before `reading`, when every request the window served is the
 * suite's: this request opened it (Remaining one below the plan's minute, or the minute itself from a
 * server that counts a request after answering it), or, on a preflighted key, one request before it was
 * the preflight's. Undefined: the window is not seen whole.
 */
export function servedBefore(reading: PlanReading, perMinute: number, preflighted: boolean): number | undefined {
  if (reading.remaining === undefined) return undefined;
  const before = perMinute - 1 - reading.remaining;
  return before >= -1 && before <= (preflighted ? 1 : 0) ? Math.max(0, before) : undefined;
}

const show = (r: PlanReading) => `${r.status} with Remaining ${r.remaining ?? '(none)'}, Reset ${r.reset ?? '(none)'}`;

/**
 * Replays the count over `first` and the bursts that followed it, in order; one step per burst until
 * one ends the spending. The suite acts on the last step; the rule fails on the first broken one.
 */
export function planWindowSteps(first: PlanReading, bursts: readonly (readonly PlanReading[])[], perMinute: number, preflighted: boolean): PlanWindowStep[] {
  const steps: PlanWindowStep[] = [];
  let anchor = 0;
  let anchorReading = first;
  let before = servedBefore(first, perMinute, preflighted);
  let offset = 1;
  for (const burst of bursts) {
    const start = offset;
    offset += burst.length;
    const promised = anchorReading.remaining;
    if (promised === undefined) {
      steps.push({ anchor, served: 0, refused: 0, promised, total: undefined, next: 'no-promise' });
      return steps;
    }
    // The suite sends what Remaining promised and one more, at once: bursts grouped otherwise (a forger's
    // sizes, cutting a burst at its 61st answer) are not a count the suite made.
    if (burst.length !== promised + 1) {
      const expected = `a burst of ${promised + 1} requests (Remaining ${promised}, and one more)`;
      const broken = { expected, actual: `a burst of ${burst.length}`, failedAt: start, alsoAt: anchor };
      steps.push({ anchor, served: 0, refused: 0, promised, total: undefined, broken, next: 'done' });
      return steps;
    }
    const index = (r: PlanReading) => start + burst.indexOf(r);
    const same = burst.filter((r) => sameWindow(anchorReading, r));
    const served = same.filter((r) => r.status === 200);
    const refused = same.filter((r) => r.status === 429);
    const seen = `${show(anchorReading)}, then ${served.length} served and ${refused.length} refused in the same window`;
    const lastServed = served.at(-1);
    const firstRefused = refused[0];
    const step: PlanWindowStep = { anchor, served: served.length, refused: refused.length, promised, total: undefined, next: 'turned' };
    steps.push(step);
    const at = (r: PlanReading | undefined) => (r ? index(r) : anchor);
    if (before !== undefined) {
      const total = before + 1 + served.length;
      step.total = total;
      if (total > perMinute) {
        const expected = `request ${perMinute + 1} of a window opened by the suite refused with 429`;
        step.broken = { expected, actual: `${total} requests of the window served: ${seen}`, failedAt: at(lastServed), alsoAt: anchor };
      } else if (firstRefused && total < perMinute) {
        const expected = `a window opened by the suite serves ${perMinute} requests before its 429`;
        step.broken = { expected, actual: `${total} served, then 429: ${seen}`, failedAt: at(firstRefused), alsoAt: anchor };
      }
      if (step.broken || firstRefused) {
        step.next = 'done';
        return steps;
      }
    } else {
      if (served.length > promised) {
        const expected = 'no more requests served in a window than its X-RateLimit-Remaining promised';
        step.broken = { expected, actual: seen, failedAt: at(lastServed), alsoAt: anchor };
      }
      if (step.broken || firstRefused) {
        step.next = step.broken ? 'done' : 'not-opened';
        return steps;
      }
    }
    // No 429 in this window: it turned while the burst was on its way. The requests that reached the next
    // window are all the suite's; that one is counted from them.
    const passed = burst.filter((r) => !sameWindow(anchorReading, r));
    // Only the newest window the burst reached is counted on: a burst slower than the window (a loaded
    // machine, a two-second embedded window) may see it turn twice, and the readings of a window already
    // over never count in the next one (counting them failed valid servers).
    const newest = passed.reduce<PlanReading | undefined>((a, b) => (a === undefined || (b.reset ?? -Infinity) > (a.reset ?? -Infinity) ? b : a), undefined);
    const later = passed.filter((r) => r.reset === undefined || newest?.reset === undefined || sameWindow(newest, r));
    if (later.length === 0 || passed.some((r) => r.status === 429)) {
      step.next = 'lost';
      return steps;
    }
    const opener = later.reduce((a, b) => ((b.remaining ?? -1) > (a.remaining ?? -1) ? b : a));
    anchorReading = later.reduce((a, b) => ((b.remaining ?? Infinity) < (a.remaining ?? Infinity) ? b : a));
    anchor = index(anchorReading);
    step.following = anchor;
    const opened = servedBefore(opener, perMinute, false);
    before = opened === undefined ? undefined : opened + later.length - 1;
  }
  return steps;
}

/** The bursts' sizes, as recorded: positive integers. */
function sizesOf(value: unknown): number[] | undefined {
  return Array.isArray(value) && value.every((n) => Number.isInteger(n) && (n as number) > 0) ? (value as number[]) : undefined;
}

export const PLAN_WINDOW_RULES: readonly JudgmentRule[] = [
  {
    name: 'rate-plan-window',
    readsBody: false,
    judge: () => holds("a plan key's window serves its plan's minute, then 429"),
    judgeAll(exchanges, params) {
      const perMinute = numberParam(params.perMinute);
      const sizes = sizesOf(params.bursts);
      const preflighted = params.preflighted;
      if (perMinute === undefined || sizes === undefined || typeof preflighted !== 'boolean') return bad('rate-plan-window');
      if (1 + sizes.reduce((a, b) => a + b, 0) !== exchanges.length) return bad('rate-plan-window');
      const readings = exchanges.map(planReadingOf);
      const [first, ...rest] = readings;
      if (!first) return bad('rate-plan-window');
      const bursts: PlanReading[][] = [];
      let at = 0;
      for (const size of sizes) {
        bursts.push(rest.slice(at, at + size));
        at += size;
      }
      const broken = planWindowSteps(first, bursts, perMinute, preflighted).find((step) => step.broken)?.broken;
      const expected = `a window of a ${perMinute}-a-minute key serves at most ${perMinute} requests, and ${perMinute} when the suite opened it`;
      return broken ? { holds: false, ...broken } : holds(expected);
    },
  },
];
