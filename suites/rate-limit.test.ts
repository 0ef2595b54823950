import { describe } from 'vitest';
import type { ApiResponse } from '../src/client/index.ts';
import { type ConformanceContext, conformance } from '../src/harness/index.ts';
import { limitsOf } from '../src/config/plans.ts';
import { isConformanceFailure } from '../src/errors.ts';
import { RETRY_RESET_AGREEMENT_MS } from '../src/checks/rules/rate-rules.ts';
import { RATE_LIMIT_NAMES } from '../src/text/header-values.ts';
import { unlikelyPetId } from './support/auth-operations.ts';
import { type Exhaustion, exhaust, once } from './support/rate-exhaustion.ts';
import { fmt, recover } from './support/rate-recovery.ts';
import { judgeWindowLength } from './support/rate-refill.ts';
import { failOnFinding } from './support/findings.ts';
import { describeTrial, keyIsolation, keyPair, keyPairings } from './support/key-isolation.ts';
import { describeReading, missingRateHeaders, resetMs, retryAfterMs } from './support/rate-readings.ts';
import { judgeRetryAfterBound } from './support/retry-after-bound.ts';
import { judgePlanKey } from './support/plan-window.ts';
import { describeReadings, measureWindow, stepsOf } from './support/rate-window.ts';

/** Retry-After and Reset have one-second granularity, and the two are read a moment apart. */
const AGREEMENT_MS = RETRY_RESET_AGREEMENT_MS;
/** A recovery request this much later than due was held up by the machine, not by the suite. */
const LATE_MS = 500;
/** Requests others may spend on the main key between its last reading and the check (as for a 429 in RATE-004). */
const OWN_SLACK = 5;

function expectRateHeaders(ctx: ConformanceContext, response: ApiResponse, what: string): void {
  ctx.judge('headers-present', response, { names: [...RATE_LIMIT_NAMES] }, `${what} (status ${response.status})`);
}

describe('rate-limit headers', () => {
  const window = once(measureWindow);

  conformance(
    'RATE-002',
    'rate-limit headers are integers, Remaining ≤ Limit, Reset a Unix time in seconds',
    async (ctx: ConformanceContext) => {
      for (const reading of (await window(ctx)).flat()) {
        const missing = missingRateHeaders(reading.response);
        if (missing.length > 0) ctx.skip(`${missing.join(', ')} missing, so there is nothing to judge (see RATE-001)`);
        // The always-on check holds the rule (same clock tolerance everywhere); this test makes sure it runs.
        failOnFinding(ctx, reading.response);
      }
    },
    { tier: 'quick' },
  );

  conformance(
    'RATE-003',
    'X-RateLimit-Remaining falls with each of three consecutive requests in one window',
    async (ctx: ConformanceContext) => {
      const runs = await window(ctx);
      const last = runs[runs.length - 1]!;
      const steps = stepsOf(last);
      if (steps.includes('unreadable')) ctx.skip('X-RateLimit-Remaining or -Reset missing or not an integer (see RATE-001, RATE-002)');
      const seen = runs.map(describeReadings).join('; then ');
      // Each measurement on its own (consecutive requests), then the last one's fall.
      for (const run of runs)
        ctx.judge(
          'rate-reset-never-back',
          run.map((r) => r.response),
          {},
          seen,
        );
      ctx.judge(
        'rate-remaining-falls',
        last.map((r) => r.response),
        {},
        seen,
      );
      if (!steps.includes('decreased')) ctx.skip(`the rate window rolled over during the repeated measurement: ${seen}`);
    },
    { tier: 'quick' },
  );

  conformance(
    'RATE-009',
    'RateLimit and RateLimit-Policy, if sent, are Structured Fields that agree with X-RateLimit-*',
    async (ctx: ConformanceContext) => {
      // The always-on check holds the rule on every response; this test makes sure it runs on the
      // window's readings. A server that does not send the IETF fields has nothing to contradict.
      const readings = (await window(ctx)).flat();
      for (const reading of readings) failOnFinding(ctx, reading.response);
      const sent = readings.some(({ response }) => response.headers.ratelimit !== undefined || response.headers['ratelimit-policy'] !== undefined);
      // Leaving the IETF fields out is allowed: the report says so rather than showing a bare pass.
      if (!sent) ctx.note('RateLimit and RateLimit-Policy not sent: nothing to check against X-RateLimit-* (the interface allows leaving them out)');
    },
    { tier: 'quick' },
  );

  conformance(
    'RATE-010',
    'Retry-After, where sent on a response other than a 429, is delay-seconds or an HTTP-date',
    async (ctx: ConformanceContext) => {
      // The always-on check judges every response of the run; this test makes sure the window's readings
      // are judged, without a request of its own.
      const responses = (await window(ctx)).flat().map((reading) => reading.response);
      for (const response of responses) failOnFinding(ctx, response);
      if (responses.every((response) => response.headers['retry-after'] === undefined)) {
        ctx.note('no Retry-After on these 200s: the always-on check judges any other response of the run that sends one');
      }
    },
    { tier: 'quick' },
  );

  conformance('RATE-001', 'rate-limit headers on a 200, a 401 and a 404', async (ctx: ConformanceContext) => {
    expectRateHeaders(ctx, await ctx.client.listPets({ limit: 1 }), 'listPets with a valid key');
    expectRateHeaders(ctx, await ctx.client.listPets({ limit: 1 }, { auth: 'none' }), 'listPets without a key');
    expectRateHeaders(ctx, await ctx.client.getPet(unlikelyPetId(ctx)), 'getPet of an unknown id');
  });

  conformance(
    'RATE-008',
    "X-RateLimit-Limit is the per-minute or the per-day limit of the key's plan (--plan); a plan key's minute holds the plan's requests",
    async (ctx: ConformanceContext) => {
      judgedPlans(ctx);
      // The plan keys first (the embedded Free key, --plan-key): their limits are the table's, whatever the main key's plan.
      if (ctx.run.profile !== 'quick' && ctx.run.exhaust) for (const planKey of ctx.run.planKeys) await judgePlanKey(ctx, planKey);
      const plan = ctx.run.plan;
      // Without --plan the requirement is untested (the report says: give --plan); nothing to send.
      if (!plan) ctx.skip("the key's plan is not known: give --plan", 'precondition');
      const response = await ctx.client.listPets({ limit: 1 });
      const raw = response.headers['x-ratelimit-limit'];
      const limit = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
      if (limit === undefined) ctx.skip(`X-RateLimit-Limit missing or not an integer (see RATE-001, RATE-002): ${JSON.stringify(raw ?? null)}`);
      // An Enterprise key's limits are custom: known when stated (enterprise:<perMinute>:<perDay>, the embedded key).
      const table = ctx.run.planLimits ?? limitsOf(plan);
      if (!table) {
        ctx.judge('rate-header-is', response, { field: 'limit', min: 1 }, 'an Enterprise key: a custom limit, a positive integer');
        return;
      }
      ctx.judge(
        'rate-header-is',
        response,
        { field: 'limit', oneOf: [table.perMinute, table.perDay] },
        `the ${plan}${ctx.run.planLimits ? ' (stated limits)' : ''} plan, ${table.perMinute} per minute or ${table.perDay} per day`,
      );
    },
    { tier: 'quick' },
  );

  conformance(
    'RATE-001',
    'rate-limit headers on a 201 and a 400',
    async (ctx: ConformanceContext) => {
      expectRateHeaders(ctx, await ctx.client.createPet({ name: ctx.petName(), categoryId: ctx.categoryId() }), 'createPet of a valid NewPet');
      expectRateHeaders(ctx, await ctx.client.createPet({}), 'createPet of {}');
    },
    { writes: true },
  );
});

describe('rate limits per key', () => {
  conformance(
    'RATE-011',
    "a key's X-RateLimit-Remaining moves only with its own requests, not with another key's",
    async (ctx: ConformanceContext) => {
      const pairings = keyPairings(ctx);
      // Untested for want of a second key, like the exhaustion of a key too large to spend: --exhaust-key covers both.
      if (pairings.length === 0) ctx.skip('one key only, and RATE-011 compares two: give a second key with --exhaust-key', 'key-too-large');
      const unclear: string[] = [];
      // Each observed key is spent by nothing else of the suite at this point: its counter is the clean one.
      for (const { observed, other, what } of pairings) {
        const isolation = await keyIsolation(observed, other);
        if (isolation.kind === 'unclear') {
          unclear.push(`${what}: ${isolation.reason}`);
          continue;
        }
        if (isolation.kind === 'own') {
          const { trial } = isolation;
          ctx.judge('rate-key-unmoved', [trial.before.response, trial.after.response], { burst: trial.burst }, `${what}: ${describeTrial(trial)}`);
          continue;
        }
        const { first, control, confirm } = isolation;
        // Seen twice around a clean control: evidence of a shared counter, never a precondition. The
        // confirming trial is recorded as the rule it breaks, so that rejudge holds an edited pass to it.
        try {
          ctx.judge('rate-key-unmoved', [confirm.before.response, confirm.after.response], { burst: confirm.burst }, what);
        } catch (error) {
          if (!isConformanceFailure(error)) throw error;
        }
        ctx.fail(
          `the observed key's Remaining falls by its own request only, whatever another key sends (plans belong to keys: each key's counters are its own)`,
          `${what}: ${describeTrial(first)}; alone: ${describeTrial(control)}; again: ${describeTrial(confirm)}`,
          [first.before.response, first.after.response, control.before.response, control.after.response, confirm.before.response, confirm.after.response],
        );
      }
      if (unclear.length > 0) ctx.skip(unclear.join('; '), 'precondition');
    },
    // Five requests on a valid server, up to fifteen to confirm a finding: more than quick's budget affords.
    { tier: 'standard' },
  );
});

// Last in the file (and the CLI runs this file last on a remote target): after the 429 the only request
// the suite sends on that key is RATE-007's, once the wait is over.
describe('rate-limit exhaustion', () => {
  // One exhaustion for the five tests below; whichever runs first spends the window. Re-exhausting per
  // test would cost a window each, which a remote key on the Free plan cannot afford.
  const exhaustion = once(exhaust);
  // RATE-007's request after the wait, which RATE-008's window length starts from.
  const recovery = once((ctx) => recover(ctx, exhaustion));
  // In every profile: a key whose window fits the budget (the embedded reference's, a Free key at
  // standard) is exhausted; a larger one is skipped as too large (see exhaust).
  const options = { exhausts: true, tier: 'quick' } as const;

  /** The 429 to judge, or a skip with the reason there is none. */
  async function tooMany(ctx: ConformanceContext): Promise<Extract<Exhaustion, { kind: 'limited' }>> {
    const result = await exhaustion(ctx);
    if (result.kind === 'skipped') ctx.skip(result.reason, result.code);
    if (result.kind === 'no-429') ctx.skip('no 429 came within the limit (see RATE-004)');
    return result;
  }

  conformance(
    'RATE-004',
    'a request over the limit gets 429, and not before the limit is spent',
    async (ctx: ConformanceContext) => {
      const result = await exhaustion(ctx);
      if (result.kind === 'skipped') ctx.skip(result.reason, result.code);
      if (result.kind === 'no-429') {
        ctx.fail(
          `a 429 within ${result.past} ${result.past === 1 ? 'request' : 'requests'} past the ${result.firstRemaining} that X-RateLimit-Remaining allowed`,
          `${result.sent} requests, none answered 429 (Remaining went from ${result.firstRemaining} to ${result.lastRemaining})`,
        );
      }
      const { previous, tooMany: reading } = result;
      // Each judgment names the exhaustion key's responses in order, so that rejudge repeats it on the log.
      const sequence = result.sequence.map((r) => r.response);
      ctx.judge('rate-none-served-past-zero', sequence, {}, 'the exhaustion');
      const early = previous.remaining === undefined || previous.remaining > result.slack;
      // A 429 naming a later Reset than the window just advertised comes from another limit (the daily one,
      // when the headers describe the minute): the advertised window cannot be judged by it.
      if (early && previous.reset !== undefined && reading.reset !== undefined && reading.reset > previous.reset + 1) {
        ctx.skip(
          `the 429 names another window (Reset ${previous.reset} → ${reading.reset}), likely a longer limit: ${describeReading(previous)} → ${describeReading(reading)}`,
        );
      }
      // Seen whole (a dedicated key, from the window's first request): it serves its Limit before the 429,
      // whatever Remaining counted; a 429 when Remaining said 1 is then one early, not a race.
      if (result.wholeWindow && result.wholeFrom !== undefined) {
        ctx.judge('rate-window-serves-limit', sequence.slice(result.wholeFrom), {}, 'the window seen whole');
        // Nobody else spent the key: a 429 right after "Remaining 1" is a count that was one too high all
        // along (the request counted after its own answer), not a race.
        ctx.judge(
          'rate-header-is',
          previous.response,
          { field: 'remaining', oneOf: [0] },
          'the last request a window serves, when nothing but the suite spent the key since the window opened',
        );
      }
      // Never put down to "someone else" in silence: the report says so, and RATE-011 judges whether
      // another key's requests move this key's counter, on a paired observation.
      if (result.slack > 1) {
        ctx.note(
          `X-RateLimit-Remaining fell by up to ${result.slack} per request during the exhaustion, more than the suite's own requests: another client on the key, or a counter shared with other keys (RATE-011)`,
        );
      }
      ctx.judge('rate-429-after-zero', sequence, {}, `the 429 after request ${result.sent}`);
      // A dedicated key is the suite's alone, spent one request at a time: its 429 must follow Remaining 0.
      if (ctx.run.exhaustApiKey) ctx.judge('rate-429-after-own-zero', sequence, {}, `the dedicated key's 429 after request ${result.sent}`);
    },
    options,
  );

  conformance(
    'RATE-011',
    'while one key is refused with 429, the other key is still served',
    async (ctx: ConformanceContext) => {
      const pair = keyPair(ctx);
      // Untested for want of a second key, like the exhaustion of a key too large to spend: --exhaust-key covers both.
      if (!pair) ctx.skip('one key only, and RATE-011 compares two: give a second key with --exhaust-key', 'key-too-large');
      const { tooMany: refused } = await tooMany(ctx);
      // What the main key's own headers said last: with requests left (a window that turned since only adds
      // to them), only the other key's 429 explains a refusal.
      const own = pair.main.rateLimit;
      const response = await pair.main.listPets({ limit: 1 }, { retryOn429: false });
      const left = own?.remaining !== undefined && own.remaining > OWN_SLACK;
      if (response.status === 429 && !left)
        ctx.skip(`the main key's own window may be spent (its last headers said Remaining ${own?.remaining ?? 'nothing'})`, 'precondition');
      ctx.judge(
        'status-other-than',
        response,
        { status: 429 },
        `the main key (its last headers said Remaining ${own?.remaining ?? '?'}), while the second key gets ${describeReading(refused)}`,
      );
    },
    // One request, but quick's budget has none to spare: the exhaustion itself is quick's.
    { ...options, tier: 'standard' },
  );

  conformance(
    'RATE-001',
    'rate-limit headers on the 429',
    async (ctx: ConformanceContext) => {
      expectRateHeaders(ctx, (await tooMany(ctx)).tooMany.response, 'the 429');
    },
    options,
  );

  conformance(
    'ERR-004',
    'the 429 carries the Error body, like every other error',
    async (ctx: ConformanceContext) => {
      // The always-on check holds the rule (the 429 body is not shown, so this is a SHOULD); this test makes
      // sure a 429 is provoked and judged.
      failOnFinding(ctx, (await tooMany(ctx)).tooMany.response);
    },
    options,
  );

  conformance(
    'RATE-005',
    'the 429 carries Retry-After as delay-seconds or an HTTP-date',
    async (ctx: ConformanceContext) => {
      const { tooMany: reading } = await tooMany(ctx);
      ctx.judge('headers-present', reading.response, { names: ['Retry-After'] }, 'the 429');
      failOnFinding(ctx, reading.response);
    },
    options,
  );

  conformance(
    'RATE-006',
    'the 429 says Remaining 0 and its Retry-After agrees with X-RateLimit-Reset',
    async (ctx: ConformanceContext) => {
      const { tooMany: reading } = await tooMany(ctx);
      ctx.judge('rate-header-is', reading.response, { field: 'remaining', oneOf: [0] }, 'the 429');
      if (retryAfterMs(reading) === undefined || resetMs(reading) === undefined)
        ctx.skip('the 429 has no usable Retry-After or X-RateLimit-Reset (see RATE-005, RATE-002)');
      ctx.judge('retry-after-agrees-reset', reading.response, {}, 'the 429');
    },
    options,
  );

  conformance(
    'RATE-012',
    "the first 429's Retry-After does not outlast X-RateLimit-Reset by more than a minute",
    async (ctx: ConformanceContext) => judgeRetryAfterBound(ctx, (await tooMany(ctx)).tooMany),
    options,
  );

  conformance(
    'RATE-007',
    'after waiting what Retry-After says, a request is served again',
    async (ctx: ConformanceContext) => {
      const recovered = await recovery(ctx);
      if (recovered.kind === 'skipped') ctx.skip(recovered.reason, recovered.code);
      const { reading: response, wait, lateMs, exhaustion: spent } = recovered;
      // A machine that stalled past the wait may have let the window turn: a 200 then says nothing of a
      // Retry-After shorter than the window (a 429 still fails: the wait had passed).
      const reset = resetMs(spent.tooMany);
      const shorterThanWindow = reset !== undefined && wait.ms + AGREEMENT_MS / 2 < reset;
      if (response.response.status === 200 && lateMs > LATE_MS && shorterThanWindow) {
        ctx.skip(
          `the request after the 429 left ${fmt(lateMs)} later than the ${fmt(wait.ms)} asked (${wait.basis}), when the window may have turned: the wait was not tested`,
          'precondition',
        );
      }
      ctx.expectStatus(response.response, 200, `listPets ${fmt(wait.ms)} after the 429 (${wait.basis})`);
    },
    options,
  );

  conformance(
    'RATE-008',
    "a key is whole again no sooner than its window's length after its last whole window",
    async (ctx: ConformanceContext) => judgeWindowLength(ctx, await recovery(ctx)),
    options,
  );
});

/**
 * Says in the report which plans' limits this run judged and which it left untested: RATE-008 holds each
 * key to its own plan's row of the table, so a row is in scope only with a key of that plan. The Free row
 * (the one a test key usually has) is named when no Free key was given.
 */
function judgedPlans(ctx: ConformanceContext): void {
  const { planKeys, plan, profile, exhaust } = ctx.run;
  if (planKeys.length > 0 && (profile === 'quick' || !exhaust)) {
    const why = exhaust ? 'the quick profile does not spend them (standard and thorough do)' : 'rate-limit exhaustion opted out (--no-exhaust)';
    ctx.note(
      `The windows of the plan keys (${planKeys.map((k) => k.plan).join(', ')}) were not spent: ${why}; only the main key's X-RateLimit-Limit was judged.`,
    );
  }
  if (planKeys.some((k) => k.plan === 'free')) return;
  const own = plan === 'free' ? "; the main key is Free: its X-RateLimit-Limit is judged here, its window by RATE-004's exhaustion" : '';
  ctx.note(
    `The Free plan's limit (60 a minute, the 61st request refused; 1,000 a day) was not tested on a Free-plan key: none was given (--plan-key free=<key>)${own}. RATE-008 is decided for the main key's plan only.`,
  );
}
