import type { ApiResponse } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { PLANS, type PlanKey } from '../../src/config/plans.ts';
import { type Reading, describeReading, readRate } from './rate-readings.ts';
import { type PlanReading, planWindowSteps } from '../../src/checks/rules/plan-window-rules.ts';

/** A window that turns this often while one key is spent: the target answers too slowly for one client to fill it. */
const MAX_TURNS = 3;
/**
 * Clients the burst is spread over. A client sends its requests one at a time, so this many are in flight
 * at once (the run's connection pool holds four): a burst then takes a quarter of the answers' time.
 */
const BURST_LANES = 4;

const planReading = (r: Reading): PlanReading => ({ status: r.response.status, limit: r.limit, remaining: r.remaining, reset: r.reset });

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
  const left = ctx.budgetLeft({ planKey: planKey.key });
  if (previous.limit !== perMinute) {
    await judgeDayPromise(ctx, planKey, previous, what);
    ctx.observable(false, `${what}: X-RateLimit-Limit names the day, so the minute's window was not spent`, 'precondition');
    return;
  }
  if (left !== undefined && left < perMinute + 1) {
    ctx.observable(false, `${what}: a minute of ${perMinute} requests and one more do not fit the ${left} left of the ${ctx.run.profile} budget`, 'budget');
    return;
  }
  // A remote key was preflighted moments ago: that request may still count in this window.
  const preflighted = !ctx.run.embedded;
  const all: Reading[] = [previous];
  const bursts: PlanReading[][] = [];
  let anchor = previous;
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
    all.push(...burst);
    bursts.push(burst.map(planReading));
    // The count is a rule over every response so far (rejudge replays it on the log); its step says what next.
    const params = { perMinute, bursts: bursts.map((b) => b.length), preflighted };
    ctx.judge(
      'rate-plan-window',
      all.map((r) => r.response),
      params,
      what,
    );
    const steps = planWindowSteps(planReading(previous), bursts, perMinute, preflighted);
    const step = steps[steps.length - 1]!;
    if (step.next === 'done') return;
    if (step.next === 'not-opened') {
      ctx.observable(
        false,
        `${what}: its window was not opened by the suite (${describeReading(anchor)}), so the requests it served are not all known`,
        'precondition',
      );
      return;
    }
    if (step.next !== 'turned' || step.following === undefined) {
      const seen = `${describeReading(anchor)}, then ${step.served} served and ${step.refused} refused in the same window`;
      ctx.observable(false, `${what}: no 429 in the window spent (${seen}), and none of its own in the next`, 'precondition');
      return;
    }
    anchor = all[step.following] ?? anchor;
  }
  ctx.observable(
    false,
    `${what}: the window turned ${MAX_TURNS + 1} times while the suite spent it: the target answers too slowly to fill one`,
    'precondition',
  );
}

/** Bursts a day-headed plan key gets: a minute that turns during the first (a short one) leaves room for a second. */
const DAY_BURSTS = 2;

/**
 * A plan key whose headers name the day (Limit 1000 on Free) is still spent for the plan's minute and one
 * more, all at once: a valid server that enforces the minute names it when it binds, so a 429 of the
 * day's window while its Remaining promised hundreds more is headers of the wrong window (rate-promise-kept).
 * A minute that turned mid-burst served it all; one more burst then meets the minute. Without the budget
 * for it, nothing is sent: the minute stays untested as before.
 */
async function judgeDayPromise(ctx: ConformanceContext, planKey: PlanKey, first: Reading, what: string): Promise<void> {
  const { perMinute, perDay } = PLANS[planKey.plan];
  const size = perMinute + 1;
  if (first.limit !== perDay || first.remaining === undefined || first.remaining <= DAY_BURSTS * size) return;
  const lanes = Array.from({ length: BURST_LANES }, () => ctx.clientWithKey(planKey.key));
  const sent: ApiResponse[] = [];
  for (let burst = 0; burst < DAY_BURSTS; burst += 1) {
    const left = ctx.budgetLeft({ planKey: planKey.key });
    if (left !== undefined && left < size + 1) break;
    sent.push(
      ...(await Promise.all(Array.from({ length: size }, (_, i) => lanes[i % BURST_LANES]!.listPets({ limit: 1 }, { retryOn429: false, pace: false })))),
    );
    if (sent.some((r) => r.status === 429)) break;
  }
  if (sent.length === 0) return;
  ctx.judge(
    'rate-promise-kept',
    [first.response, ...sent],
    {},
    `${what}, whose headers name the day: ${sent.length} requests, ${size} at once, after ${describeReading(first)}`,
  );
}
