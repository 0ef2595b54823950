import type { ConformanceContext } from '../../src/harness/index.ts';
import { PLANS, type PlanKey } from '../../src/plans.ts';
import { type Reading, describeReading, readRate } from './rate-readings.ts';

/** A window that turns this often while one key is spent: the target answers too slowly for one client to fill it. */
const MAX_TURNS = 3;
/** Reset values this close (seconds) name the same window; a sliding window moves it a little. */
const SAME_WINDOW_S = 1;

/** The window being counted: opened by the suite's own request when `whole`, so its served requests are all ours. */
interface Window {
  reset: number | undefined;
  served: number;
  whole: boolean;
  first: Reading;
}

/**
 * The window this reading is in, counted from it. It is whole (every request it served is the suite's)
 * when this request opened it (Remaining one below the plan's minute, or the minute itself from a server
 * that counts a request after answering it), or, on a remote key, when one request before it was the
 * preflight's, which checks every key once just before the run.
 */
function opens(reading: Reading, perMinute: number, preflighted: boolean): Window {
  const before = reading.remaining === undefined ? undefined : perMinute - 1 - reading.remaining;
  const whole = before !== undefined && before <= (preflighted ? 1 : 0) && before >= -1;
  return { reset: reading.reset, served: whole ? Math.max(1, before + 1) : 1, whole, first: reading };
}

function turned(window: Window, previous: Reading, reading: Reading): boolean {
  if (window.reset !== undefined && reading.reset !== undefined && reading.reset > window.reset + SAME_WINDOW_S) return true;
  return previous.remaining !== undefined && reading.remaining !== undefined && reading.remaining > previous.remaining;
}

/**
 * Judges one plan key (the embedded Free key, a --plan-key) against the plan table: its X-RateLimit-Limit
 * is the plan's per-minute or per-day limit, and a minute window opened by the suite serves exactly the
 * plan's per-minute requests, the next one refused with 429 (the 61st on Free: not sooner, not later).
 * Spends one window with cheap requests and stops at the first 429 or at the first request served past
 * the limit; never waits for a window to turn. A window that turns on the way is counted again from its
 * first request (MAX_TURNS at most). What cannot be judged (a window not opened by the suite, the budget
 * too short for the plan's minute) leaves the requirement untested through ctx.observable.
 */
export async function judgePlanKey(ctx: ConformanceContext, planKey: PlanKey): Promise<void> {
  const { perMinute, perDay } = PLANS[planKey.plan];
  const what = `the ${planKey.plan}-plan key (${perMinute} a minute, ${perDay} a day)`;
  const client = ctx.clientWithKey(planKey.key);
  // The first request is paced: a key another run left at 0 is waited for, like the exhaustion's.
  let previous = readRate(await client.listPets({ limit: 1 }));
  ctx.check(
    previous.limit === perMinute || previous.limit === perDay,
    `X-RateLimit-Limit ${perMinute} (per minute) or ${perDay} (per day) on ${what}`,
    () => `${previous.response.status} with X-RateLimit-Limit ${previous.response.headers['x-ratelimit-limit'] ?? '(none)'}`,
    previous.response,
  );
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
  let window = opens(previous, perMinute, !ctx.run.embedded);
  let turns = 0;
  let sent = 1;
  // Never more than the windows it may count: a target whose Remaining never falls is not spent forever (thorough has no budget).
  const bound = Math.min(left ?? Infinity, (MAX_TURNS + 1) * (perMinute + 1));
  while (sent < bound) {
    const reading = readRate(await client.listPets({ limit: 1 }, { retryOn429: false, pace: false }));
    sent += 1;
    const status = reading.response.status;
    if (status === 429) {
      // A 429 naming a later window is another limit's (the day's): the minute was not judged.
      if (turned(window, previous, reading) && reading.remaining !== 0) {
        ctx.observable(
          false,
          `${what}: the 429 names another window than the one spent (${describeReading(previous)} → ${describeReading(reading)})`,
          'precondition',
        );
        return;
      }
      if (!window.whole) {
        ctx.observable(
          false,
          `${what}: its window was not opened by the suite (${describeReading(window.first)}), so the requests it served are not all known`,
          'precondition',
        );
        return;
      }
      ctx.check(
        window.served >= perMinute,
        `a window of ${what}, opened by the suite, serves ${perMinute} requests before its 429`,
        () => `${window.served} served, then 429: ${describeReading(previous)} → ${describeReading(reading)}`,
        [window.first.response, previous.response, reading.response],
      );
      return;
    }
    if (status >= 300) {
      ctx.observable(false, `${what}: listPets answered ${status} while the window was spent (see the other requirements)`, 'precondition');
      return;
    }
    if (turned(window, previous, reading)) {
      turns += 1;
      if (turns > MAX_TURNS) {
        ctx.observable(false, `${what}: the window turned ${turns} times while the suite spent it: the target answers too slowly to fill one`, 'precondition');
        return;
      }
      window = opens(reading, perMinute, false);
    } else {
      window.served += 1;
    }
    ctx.check(
      !window.whole || window.served <= perMinute,
      `request ${perMinute + 1} of a window of ${what}, opened by the suite, refused with 429`,
      () => `request ${window.served} of the window was served: ${describeReading(reading)}`,
      [window.first.response, previous.response, reading.response],
    );
    ctx.check(
      window.whole || previous.remaining !== 0 || window.served === 1,
      `no request of ${what} served once X-RateLimit-Remaining said 0 in the same window`,
      () => `${describeReading(previous)}, then the next request was served: ${describeReading(reading)}`,
      [previous.response, reading.response],
    );
    previous = reading;
  }
  const short = left !== undefined && bound === left;
  ctx.observable(
    false,
    short
      ? `${what}: the ${ctx.run.profile} budget ran out before the window's 429`
      : `${what}: ${sent} requests and no 429, in windows the suite did not see whole`,
    short ? 'budget' : 'precondition',
  );
}
