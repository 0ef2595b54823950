import type { ConformanceContext } from '../../src/harness/index.ts';
import { PLANS, type PlanKey } from '../../src/plans.ts';
import { type Reading, describeReading, readRate } from './rate-readings.ts';
import { SAME_WINDOW_S } from '../../src/checks/rules/rate-rules.ts';

/** A window that turns this often while one key is spent: the target answers too slowly for one client to fill it. */
const MAX_TURNS = 3;
/**
 * Clients the burst is spread over. A client sends its requests one at a time, so this many are in flight
 * at once (the run's connection pool holds four): a burst then takes a quarter of the answers' time.
 */
const BURST_LANES = 4;

/** Whether a reading is of the window another one names (Reset within SAME_WINDOW_S). */
function sameWindow(anchor: Reading, reading: Reading): boolean {
  return anchor.reset !== undefined && reading.reset !== undefined && Math.abs(reading.reset - anchor.reset) <= SAME_WINDOW_S;
}

/**
 * The suite's requests a window holds before `reading`, when every request the window served is the
 * suite's: this request opened it (Remaining one below the plan's minute, or the minute itself from a
 * server that counts a request after answering it), or, on a remote key, one request before it was the
 * preflight's, which checks every key once just before the run. Undefined: the window is not seen whole.
 */
function servedBefore(reading: Reading, perMinute: number, preflighted: boolean): number | undefined {
  if (reading.remaining === undefined) return undefined;
  const before = perMinute - 1 - reading.remaining;
  return before >= -1 && before <= (preflighted ? 1 : 0) ? Math.max(0, before) : undefined;
}

/**
 * Judges one plan key (the embedded Free key, a --plan-key) against the plan table: its X-RateLimit-Limit
 * is the plan's per-minute or per-day limit, and a minute window opened by the suite serves exactly the
 * plan's per-minute requests, the next one refused with 429 (the 61st on Free: not sooner, not later).
 * Spends one window with cheap requests sent at once, what Remaining promised and one more, so that one
 * 429 is expected; never waits for a window to turn. A window that turns on the way is counted again from
 * the suite's requests that reached the next one (MAX_TURNS at most). What cannot be judged (a window not
 * opened by the suite, the budget too short for the plan's minute) leaves the requirement untested
 * through ctx.observable; a window not seen whole is still held to what its Remaining promised.
 */
export async function judgePlanKey(ctx: ConformanceContext, planKey: PlanKey): Promise<void> {
  const { perMinute, perDay } = PLANS[planKey.plan];
  const what = `the ${planKey.plan}-plan key (${perMinute} a minute, ${perDay} a day)`;
  const lanes = Array.from({ length: BURST_LANES }, () => ctx.clientWithKey(planKey.key));
  const client = lanes[0]!;
  // The first request is paced: a key another run left at 0 is waited for, like the exhaustion's.
  const previous = readRate(await client.listPets({ limit: 1 }));
  ctx.judge('rate-header-is', previous.response, { field: 'limit', oneOf: [perMinute, perDay] }, what);
  if (previous.limit !== perMinute) {
    ctx.observable(false, `${what}: X-RateLimit-Limit names the day, so the minute's window was not spent`, 'precondition');
    return;
  }
  const left = ctx.budgetLeft('plan');
  if (left !== undefined && left < perMinute + 1) {
    ctx.observable(false, `${what}: a minute of ${perMinute} requests and one more do not fit the ${left} left of the ${ctx.run.profile} budget`, 'budget');
    return;
  }
  // A remote key was preflighted moments ago: that request may still count in this window.
  let anchor = previous;
  let before = servedBefore(anchor, perMinute, !ctx.run.embedded);
  let sent = 1;
  for (let turn = 0; turn <= MAX_TURNS; turn += 1) {
    const promised = anchor.remaining;
    if (promised === undefined) {
      ctx.observable(false, `${what}: no usable X-RateLimit-Remaining (see RATE-001, RATE-002)`, 'precondition');
      return;
    }
    // What Remaining promised, and one more, BURST_LANES at a time: the window is spent in a fraction of it
    // even when each answer is slow, so that it rarely turns on the way (the embedded window is two seconds).
    const size = promised + 1;
    if (left !== undefined && sent + size > left) {
      ctx.observable(false, `${what}: ${size} more requests do not fit the ${left} left of the ${ctx.run.profile} budget`, 'budget');
      return;
    }
    const burst = (
      await Promise.all(Array.from({ length: size }, (_, i) => lanes[i % BURST_LANES]!.listPets({ limit: 1 }, { retryOn429: false, pace: false })))
    ).map(readRate);
    sent += size;
    const odd = burst.find((r) => r.response.status !== 200 && r.response.status !== 429);
    if (odd) {
      ctx.observable(false, `${what}: listPets answered ${odd.response.status} while the window was spent (see the other requirements)`, 'precondition');
      return;
    }
    const same = burst.filter((r) => sameWindow(anchor, r));
    const served = same.filter((r) => r.response.status === 200);
    const refused = same.filter((r) => r.response.status === 429);
    const evidence = [anchor.response, ...served.slice(-1).map((r) => r.response), ...refused.slice(0, 1).map((r) => r.response)];
    const seen = `${describeReading(anchor)}, then ${served.length} served and ${refused.length} refused in the same window`;
    if (before !== undefined) {
      const total = before + 1 + served.length;
      ctx.check(
        total <= perMinute,
        `request ${perMinute + 1} of a window of ${what}, opened by the suite, refused with 429`,
        () => `${total} requests of the window served: ${seen}`,
        evidence,
      );
      if (refused.length > 0) {
        ctx.check(
          total >= perMinute,
          `a window of ${what}, opened by the suite, serves ${perMinute} requests before its 429`,
          () => `${total} served, then 429: ${seen}`,
          evidence,
        );
        return;
      }
    } else {
      ctx.check(served.length <= promised, `no more requests of ${what} served in a window than its X-RateLimit-Remaining promised`, () => seen, evidence);
      if (refused.length > 0) {
        ctx.observable(
          false,
          `${what}: its window was not opened by the suite (${describeReading(anchor)}), so the requests it served are not all known`,
          'precondition',
        );
        return;
      }
    }
    // No 429 in this window: it turned while the burst was on its way. The requests that reached the next
    // window are all the suite's; count that one from them.
    const later = burst.filter((r) => !sameWindow(anchor, r));
    if (later.length === 0 || later.some((r) => r.response.status === 429)) {
      ctx.observable(false, `${what}: no 429 in the window spent (${seen}), and none of its own in the next`, 'precondition');
      return;
    }
    const opener = later.reduce((a, b) => ((b.remaining ?? -1) > (a.remaining ?? -1) ? b : a));
    anchor = later.reduce((a, b) => ((b.remaining ?? Infinity) < (a.remaining ?? Infinity) ? b : a));
    const opened = servedBefore(opener, perMinute, false);
    before = opened === undefined ? undefined : opened + later.length - 1;
  }
  ctx.observable(
    false,
    `${what}: the window turned ${MAX_TURNS + 1} times while the suite spent it: the target answers too slowly to fill one`,
    'precondition',
  );
}
