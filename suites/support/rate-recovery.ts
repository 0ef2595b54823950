import { setTimeout as sleep } from 'node:timers/promises';
import type { ConformanceContext } from '../../src/harness/index.ts';
import type { SkipCode } from '../../src/report/test-meta.ts';
import { type Exhaustion, exhaustionClient } from './rate-exhaustion.ts';
import { type Reading, readRate, resetMs, retryAfterMs } from './rate-readings.ts';

/** RATE-007 waits at most this long; a longer Retry-After skips it rather than sending early. */
const MAX_RECOVERY_WAIT_MS = 90_000;
/** Timer and clock granularity only: the wait honours Retry-After, it does not stretch it. */
const TIMER_MARGIN_MS = 50;

/** The request after the exhaustion's 429, once its wait was over: RATE-007's, and RATE-008's first whole window. */
export type Recovery =
  | { kind: 'skipped'; reason: string; code: SkipCode }
  | {
      kind: 'recovered';
      /** The exhaustion's 429 and the responses before it, as the exhaustion returned them. */
      exhaustion: Extract<Exhaustion, { kind: 'limited' }>;
      /** The request sent once the wait was over. */
      reading: Reading;
      wait: { ms: number; basis: string };
      /** How much later than due the request left (a machine that stalled). */
      lateMs: number;
    };

/**
 * Waits what the exhaustion's 429 asks (Retry-After, else until Reset) and sends one request on the
 * exhausted key: the only request the suite sends on it after its 429. Shared (`once`) by RATE-007, which
 * judges it, and RATE-008's window length, which starts from it.
 */
export async function recover(ctx: ConformanceContext, exhaust: (ctx: ConformanceContext) => Promise<Exhaustion>): Promise<Recovery> {
  const exhaustion = await exhaust(ctx);
  if (exhaustion.kind === 'skipped') return exhaustion;
  if (exhaustion.kind === 'no-429') return { kind: 'skipped', code: 'precondition', reason: 'no 429 came within the limit (see RATE-004)' };
  const reading = exhaustion.tooMany;
  const wait = recoveryWait(reading);
  if (wait === undefined)
    return { kind: 'skipped', code: 'precondition', reason: 'the 429 says neither Retry-After nor X-RateLimit-Reset usably: no safe time to come back' };
  if (wait.ms > MAX_RECOVERY_WAIT_MS) {
    const reason = `the 429 asks for a wait of ${fmt(wait.ms)} (${wait.basis}), more than the ${fmt(MAX_RECOVERY_WAIT_MS)} the suite waits; nothing is sent before then`;
    return { kind: 'skipped', code: 'precondition', reason };
  }
  const due = reading.arrivedAt + wait.ms + TIMER_MARGIN_MS;
  await sleep(Math.max(0, due - Date.now()), undefined, { signal: ctx.signal });
  const lateMs = Date.now() - due;
  const response = await exhaustionClient(ctx).listPets({ limit: 1 }, { retryOn429: false, pace: false });
  return { kind: 'recovered', exhaustion, reading: readRate(response), wait, lateMs };
}

/** What the 429 asks the client to wait: Retry-After, else (a server missing RATE-005) until Reset. */
function recoveryWait(reading: Reading): { ms: number; basis: string } | undefined {
  const retry = retryAfterMs(reading);
  if (retry !== undefined) return { ms: retry, basis: `Retry-After: ${reading.response.headers['retry-after']}` };
  const reset = resetMs(reading);
  return reset === undefined ? undefined : { ms: Math.max(0, reset), basis: `X-RateLimit-Reset: ${reading.reset}` };
}

export function fmt(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
