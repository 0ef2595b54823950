import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from '../../src/client/exchange.ts';
import type { ApiResponse, TargetClient } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import type { SkipCode } from '../../src/report/test-meta.ts';
import { remainingSlack } from '../../src/checks/rules/rate-rules.ts';
import { PLANS } from '../../src/config/plans.ts';
import { type Reading, readRate, resetMs } from './rate-readings.ts';

/** Requests sent past the advertised Remaining before the suite concludes no 429 will come. */
export const PAST_REMAINING = 5;
/** A key with more left than this in its window is not exhausted, whatever the budget (big plans). */
const MAX_EXHAUSTION = 1000;

export type Exhaustion =
  | { kind: 'skipped'; reason: string; code: SkipCode }
  /** No 429 within Remaining + `past` requests. */
  | { kind: 'no-429'; sent: number; past: number; firstRemaining: number; lastRemaining: number }
  | {
      kind: 'limited';
      /** A request served although the response before it, in the same window, said Remaining 0. */
      servedPastZero?: { zero: Reading; served: Reading };
      /** The 429. */
      tooMany: Reading;
      /** The exhaustion key's responses in order, the first (paced) one to the 429: what the rules judge. */
      sequence: Reading[];
      /** From which response of `sequence` the window was seen whole (see wholeWindow). */
      wholeFrom?: number;
      /** The response just before it (the paced probe when the very first unpaced request got the 429). */
      previous: Reading;
      /** The highest Remaining a 429 may follow: 1 for our own race, more when Remaining fell faster than the suite sent (see RATE-011). */
      slack: number;
      sent: number;
      /**
       * The key's whole window, seen from its first request to the 429 with nothing else spending it (a
       * dedicated exhaustion key, Remaining falling by one each time, no rollover): the requests it served.
       */
      wholeWindow?: { limit: number; served: number; lastRemaining: number | undefined };
    };

/** The key to spend: the embedded reference's separate exhaustion key, else the user's only key. */
export function exhaustionClient(ctx: ConformanceContext): TargetClient {
  return ctx.run.exhaustApiKey ? ctx.clientWithKey(ctx.run.exhaustApiKey) : ctx.client;
}

/**
 * Requests to send past the advertised Remaining: PAST_REMAINING, fewer when the budget is short (the
 * quick profile), never none. One suffices to judge: past Remaining 0 a request is answered 429 or, served,
 * fails RATE-004; the rest only guard against readings others sharing the key have made stale.
 */
function pastRemaining(ctx: ConformanceContext, remaining: number): number {
  const left = ctx.budgetLeft('exhaust');
  // One request of the budget stays for RATE-007's recovery.
  return left === undefined ? PAST_REMAINING : Math.max(1, Math.min(PAST_REMAINING, left - remaining - 1));
}

/** Why spending `remaining` more requests, one past them and the recovery request of RATE-007 is not affordable. */
function unaffordable(ctx: ConformanceContext, remaining: number): string | undefined {
  const left = ctx.budgetLeft('exhaust');
  const spend = remaining + 1 + 1;
  if (remaining > MAX_EXHAUSTION) {
    return `the key allows ${remaining} more requests this window; the suite exhausts only keys with at most ${MAX_EXHAUSTION} left`;
  }
  if (left !== undefined && spend > left) {
    return `the key allows ${remaining} more requests this window; the ${ctx.run.profile} budget has ${left} left`;
  }
  return undefined;
}

/**
 * Spends the key's window with cheap requests (listPets limit=1) until the first 429, and stops there: no
 * request is sent after it (a real key can be banned for that). Bounded by Remaining + pastRemaining;
 * when the window rolls over mid-way the count restarts once from the new Remaining.
 */
export async function exhaust(ctx: ConformanceContext): Promise<Exhaustion> {
  if (ctx.run.profile === 'quick' && !ctx.run.exhaustApiKey) {
    const reason =
      "the quick profile spends only a dedicated key's window (--exhaust-key), never the main key's: the 429 and its MUSTs " +
      '(RATE-004, RATE-005, RATE-007, RATE-011, RATE-012, RATE-001 on the 429) stay untested';
    return { kind: 'skipped', code: 'no-exhaust', reason };
  }
  const client = exhaustionClient(ctx);
  const probe = (unpaced: boolean) => client.listPets({ limit: 1 }, unpaced ? { retryOn429: false, pace: false } : {});
  // The first request is paced like any other, so a key an earlier test left at 0 is waited for.
  const first = await awayFromTurn(ctx, readRate(await probe(false)), () => probe(false));
  let previous = first;
  // A dedicated key's window is its own: one request on the main key now must not bring its 429 sooner
  // (a limiter that counts per address, not per key, does: the whole-window check below sees it).
  if (ctx.run.exhaustApiKey) await ctx.client.listPets({ limit: 1 }, { retryOn429: false, pace: false });
  const firstRemaining = previous.remaining;
  if (firstRemaining === undefined) {
    return {
      kind: 'skipped',
      code: 'precondition',
      reason: 'no usable X-RateLimit-Remaining (see RATE-001, RATE-002): the suite cannot bound the requests an exhaustion would send',
    };
  }
  const tooDear = unaffordable(ctx, firstRemaining);
  if (tooDear) return (await refusedWithinPromise(ctx, probe, first)) ?? { kind: 'skipped', code: 'key-too-large', reason: tooDear };
  let remaining = firstRemaining;
  let past = pastRemaining(ctx, remaining);
  let bound = remaining + past;
  let rolledOver = false;
  let slack = 1;
  let sent = 0;
  let servedPastZero: { zero: Reading; served: Reading } | undefined;
  const sequence: Reading[] = [first];
  // The request that opened the window the 429 ends, when one of ours did: the paced first one, or the
  // first of a window that turned mid-way (even to the same Remaining, which the count alone misses).
  let opener: Opener | undefined = { reading: first, sent: 0 };
  while (sent < bound) {
    const reading = readRate(await probe(true));
    sent += 1;
    sequence.push(reading);
    if (reading.response.status === 429) {
      const whole = opener && slack === 1 ? wholeWindow(ctx, [opener.reading, previous, reading], sent - opener.sent) : undefined;
      return {
        kind: 'limited',
        tooMany: reading,
        previous,
        slack,
        sent,
        sequence,
        ...(servedPastZero ? { servedPastZero } : {}),
        ...(whole && opener ? { wholeWindow: whole, wholeFrom: opener.sent } : {}),
      };
    }
    // Others sharing the key can only make a 429 come sooner: a request served after Remaining 0 in the
    // same window (same Reset) is one the target allowed beyond its own count.
    if (servedPastZero === undefined && previous.remaining === 0 && reading.reset === previous.reset && reading.response.status < 300) {
      servedPastZero = { zero: previous, served: reading };
    }
    const current = reading.remaining;
    if (current === undefined) {
      return { kind: 'skipped', code: 'precondition', reason: `X-RateLimit-Remaining became unusable after ${sent} requests (see RATE-001, RATE-002)` };
    }
    if (current > remaining || reading.reset !== previous.reset) opener = opensWindow(reading, previous) ? { reading, sent } : undefined;
    if (current > remaining) {
      // A new window: the count so far no longer bounds anything.
      if (rolledOver) {
        const reason = `the rate window rolled over twice in ${sent} requests: the target answers too slowly for one client to spend a window`;
        return { kind: 'skipped', code: 'precondition', reason };
      }
      const reason = unaffordable(ctx, current);
      if (reason) return { kind: 'skipped', code: 'key-too-large', reason };
      rolledOver = true;
      past = pastRemaining(ctx, current);
      bound = sent + current + past;
    }
    // Others using the key make Remaining fall by more than 1 per request; a 429 may then come sooner.
    slack = remainingSlack(sequence);
    remaining = current;
    previous = reading;
  }
  return { kind: 'no-429', sent, past, firstRemaining, lastRemaining: remaining };
}

/** Within this of its turn, by the headers, a window is too close to its end to exhaust (see awayFromTurn). */
const TURN_TOO_CLOSE_MS = 1_000;
/** Past the turn by this much, for timer and clock granularity. */
const PAST_TURN_MS = 50;

/**
 * The reading the exhaustion starts from. When `first` says its window turns within a second, the 429
 * would come at the window's very end, where a Retry-After too short (RATE-007) cannot be told from the
 * turn: Reset, Date and Retry-After all count whole seconds. The exhaustion then waits for the turn and
 * starts from a new reading in the next window (one request more, at most a second's wait, once).
 */
async function awayFromTurn(ctx: ConformanceContext, first: Reading, probe: () => Promise<ApiResponse>): Promise<Reading> {
  const untilTurn = resetMs(first);
  if (untilTurn === undefined || untilTurn <= 0 || untilTurn > TURN_TOO_CLOSE_MS) return first;
  await sleep(untilTurn + PAST_TURN_MS, undefined, { signal: ctx.signal });
  return readRate(await probe());
}

/** Requests sent on a key too large to exhaust, to see whether it keeps what its Remaining promises. */
const PROMISE_PROBES = 2;

/**
 * The probes a key too large to exhaust gets: PROMISE_PROBES, or, when its X-RateLimit-Limit is a plan's
 * number, as many as that plan's minute and one more: headers that describe the day while the minute is
 * enforced (Limit 1000 on Free) then show a 429 with hundreds of requests said to be left, and so does a
 * key that says a plan's minute and serves a fraction of it (a Business key serving 200 of its 1000).
 */
function promiseProbes(first: Reading): number {
  // 1000 is both Free's day and Business's minute: the larger spend covers both readings.
  const spends = Object.values(PLANS).flatMap(({ perMinute, perDay }) => [
    ...(perDay === first.limit ? [perMinute + 1] : []),
    ...(perMinute === first.limit ? [perMinute + 1] : []),
  ]);
  return Math.max(PROMISE_PROBES, ...spends);
}

/**
 * A key too large to exhaust still gets PROMISE_PROBES more requests (when the budget has them): a 429
 * among them, right after a response that promised hundreds more, is a 429 before the limit is spent,
 * which RATE-004 judges like any other (a 429 naming a later Reset is another window's). A window that
 * turns on the way (Remaining rises, or Reset moves later: a short window on a slow machine) is probed
 * once more from its turn. Undefined when none came: the key stays untested as too large.
 */
async function refusedWithinPromise(
  ctx: ConformanceContext,
  probe: (unpaced: boolean) => Promise<ApiResponse>,
  first: Reading,
): Promise<Exhaustion | undefined> {
  const left = ctx.budgetLeft('exhaust');
  // The plan's minute, or as much of it as the budget holds (one request stays for RATE-007); two at least.
  const wanted = promiseProbes(first);
  let probes = left === undefined ? wanted : Math.max(PROMISE_PROBES, Math.min(wanted, left - 1));
  if (left !== undefined && left < probes + 1) return undefined;
  let previous = first;
  let sequence = [first];
  let turns = 0;
  for (let sent = 1; sent <= probes; sent++) {
    const reading = readRate(await probe(true));
    sequence.push(reading);
    if (reading.response.status === 429) return { kind: 'limited', tooMany: reading, previous, slack: remainingSlack(sequence.slice(0, -1)), sent, sequence };
    if (reading.remaining === undefined || previous.remaining === undefined) return undefined;
    // A turn shows as a Remaining that rises, or as a later Reset: a window that turns to the same
    // Remaining (its first request seen where the last one of the window before was) reads alike otherwise.
    const laterReset = reading.reset !== undefined && previous.reset !== undefined && reading.reset > previous.reset;
    if (reading.remaining > previous.remaining || laterReset) {
      const budget = ctx.budgetLeft('exhaust');
      // Counted again from the turn, as far as the budget still holds: the probes so far belong to the window before it.
      if (budget !== undefined) probes = Math.min(probes, budget - 1);
      if (turns > 0 || probes < PROMISE_PROBES) return undefined;
      turns += 1;
      sequence = [reading];
      sent = 0;
    }
    previous = reading;
  }
  return undefined;
}

/** A served request that may have opened its window, and the exhaustion's count when it was sent (0: the paced first). */
interface Opener {
  reading: Reading;
  sent: number;
}

/**
 * Whether `reading` reads as the first request of a new window: a later Reset than the response before
 * it, and Remaining = Limit − 1 (or Limit, from a server that counts a request only after answering it).
 */
function opensWindow(reading: Reading, previous: Reading): boolean {
  const { limit, remaining, reset } = reading;
  if (limit === undefined || reset === undefined || previous.reset === undefined || reset <= previous.reset) return false;
  return remaining === limit - 1 || remaining === limit;
}

/**
 * The requests a window served when this exhaustion saw all of it: the key is the run's dedicated
 * exhaustion key (nobody else spends it), one of its requests opened the window (Remaining = Limit − 1,
 * or Limit from a server that counts a request only after answering it), and every later one, up to the
 * 429, was in the same window and counted one. Then the 429 came after `served` requests (the opener
 * included, the 429 not), right after a response that said `lastRemaining`.
 */
function wholeWindow(
  ctx: ConformanceContext,
  readings: readonly [Reading, Reading, Reading],
  served: number,
): { limit: number; served: number; lastRemaining: number | undefined } | undefined {
  const [opener, previous] = readings;
  if (!ctx.run.exhaustApiKey || opener.limit === undefined) return undefined;
  if (opener.remaining !== opener.limit - 1 && opener.remaining !== opener.limit) return undefined;
  // The 429 too names the same window: a 429 of another limit (a day's, under a minute's headers) is not this window's end.
  if (opener.reset === undefined || readings.some((r) => r.reset !== opener.reset || r.limit !== opener.limit)) return undefined;
  return { limit: opener.limit, served, lastRemaining: previous.remaining };
}

/**
 * A describe-scoped memo: the first test that asks does the work and records its exchanges; every later
 * test gets the same result with those exchanges attached to its own evidence (a failure it finds in
 * the shared measurement then shows the requests it was decided on, not an empty list).
 */
export function once<T>(make: (ctx: ConformanceContext) => Promise<T>): (ctx: ConformanceContext) => Promise<T> {
  let pending: Promise<{ value: T; exchanges: Exchange[]; by: string }> | undefined;
  return async (ctx) => {
    const mine = pending === undefined;
    pending ??= ctx.recording(() => make(ctx)).then((recorded) => ({ ...recorded, by: ctx.title }));
    const { value, exchanges, by } = await pending;
    if (!mine) ctx.attachShared(exchanges, by);
    return value;
  };
}
