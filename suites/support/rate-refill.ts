import { setTimeout as sleep } from 'node:timers/promises';
import type { RuleExchange } from '../../src/checks/judgment-rules.ts';
import { keepsBound, promisedWhole, refillBound, wholeWindow } from '../../src/checks/rules/rate-refill-rules.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { ruleExchangeOf } from '../../src/harness/rule-exchanges.ts';
import { PAST_REMAINING, exhaustionClient } from './rate-exhaustion.ts';
import { type Reading, describeReading, readRate } from './rate-readings.ts';
import type { Recovery } from './rate-recovery.ts';

/** Timer and clock granularity: a request is sent this long after the moment it waits for. */
const TIMER_MARGIN_MS = 50;

/** A reading as the rules read an exchange: one arithmetic for the test's decisions and for rejudge. */
const asRule = ({ response }: Reading): RuleExchange => ruleExchangeOf(response);

const isWhole = (reading: Reading) => wholeWindow(asRule(reading));

/**
 * RATE-008's window length (rules/rate-refill-rules.ts), on the dedicated exhaustion key once RATE-007's
 * request after the 429 is answered: the key whole again (that request, or one a window later when a
 * limiter frees its requests one at a time), spent again to a 429, and, when that 429 promises the key
 * whole sooner than any limiter of the stated window (--rate-window) allows, one request at that moment.
 * Costs the key's Limit once more; nothing is sent before a Retry-After or Reset has passed.
 */
export async function judgeWindowLength(ctx: ConformanceContext, recovered: Recovery): Promise<void> {
  if (!ctx.run.exhaustApiKey) {
    ctx.skip("the window's length is measured on a key only the suite spends: give a second key with --exhaust-key", 'key-too-large');
  }
  if (recovered.kind === 'skipped') ctx.skip(`the window's length was not measured: ${recovered.reason}`, recovered.code);
  const windowMs = ctx.run.rateWindowMs;
  const client = exhaustionClient(ctx);
  const probe = async () => readRate(await client.listPets({ limit: 1 }, { retryOn429: false, pace: false }));
  const waitUntil = (at: number) => sleep(Math.max(0, at - Date.now()), undefined, { signal: ctx.signal });
  const { exhaustion, reading: recovery } = recovered;
  const path: Reading[] = [exhaustion.tooMany];
  let whole = recovery;
  if (!isWhole(recovery)) {
    if (recovery.response.status === 429) ctx.skip('the request after the wait the 429 asked was refused (RATE-007 judges it)');
    // A sliding log or a token bucket frees its requests one at a time: whole at the latest a window on.
    path.push(recovery);
    await waitUntil(recovery.arrivedAt + windowMs + TIMER_MARGIN_MS);
    whole = await probe();
    if (!isWhole(whole)) {
      ctx.skip(
        `the key was not whole again (Remaining at least Limit − 1) a ${windowMs / 1000} s window after its 429's wait: ${describeReading(whole)}; the window's length was not measured`,
      );
    }
  }
  path.push(whole);
  // The measurement starts from this answer: recorded, so that the log holds what "whole" was read from.
  ctx.judge('rate-header-is', whole.response, { field: 'remaining', min: (whole.limit ?? 1) - 1 }, 'the key whole again after its 429 (Limit − 1 left)');
  const left = ctx.budgetLeft('exhaust');
  const spend = (whole.remaining ?? 0) + PAST_REMAINING;
  if (left !== undefined && spend + 1 > left) {
    // Quick's 70 hold one Free window; standard's 600 hold two, so that is the way to cover it there.
    const quick = ctx.run.profile === 'quick';
    ctx.skip(
      `measuring the window's length spends the key's window again (up to ${spend + 1} requests), and the ${ctx.run.profile} budget has ${left} left${quick ? ' (needs --profile standard)' : ''}`,
      quick ? 'profile' : 'budget',
    );
  }
  let again: Reading | undefined;
  for (let sent = 0; sent < spend && again === undefined; sent += 1) {
    const reading = await probe();
    if (reading.response.status === 429) again = reading;
  }
  if (again === undefined) ctx.skip(`no 429 within ${spend} requests of the key's whole window (see RATE-004): the window's length was not measured`);
  if (again.limit !== whole.limit) {
    ctx.skip(`the 429 names another limit (X-RateLimit-Limit ${whole.limit ?? '?'} → ${again.limit ?? '?'}): the window's length was not measured`);
  }
  const bound = refillBound(asRule(exhaustion.tooMany), asRule(path[path.length - 2] as Reading), asRule(whole), windowMs);
  const promise = promisedWhole(asRule(again));
  if (bound === undefined || promise === undefined) {
    ctx.skip("the 429 says neither Retry-After nor X-RateLimit-Reset usably (see RATE-005, RATE-002): the window's length was not measured");
  }
  const evidence = [...path, again];
  // Whole again sooner than any limiter of the window allows, by the 429's own word: ask then.
  if (!keepsBound(bound, promise)) {
    await waitUntil(promise + TIMER_MARGIN_MS);
    evidence.push(await probe());
  }
  ctx.judge(
    'rate-window-length',
    evidence.map((r) => r.response),
    { windowS: windowMs / 1000 },
    `the dedicated key's ${windowMs / 1000} s window (--rate-window)`,
  );
}
