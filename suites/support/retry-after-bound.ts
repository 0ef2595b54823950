import type { ConformanceContext } from '../../src/harness/index.ts';
import { RETRY_AFTER_PAST_RESET_MS } from '../../src/header-values.ts';
import { type Reading, resetMs, retryAfterMs } from './rate-readings.ts';

function duration(ms: number): string {
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  if (ms >= 60_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * RATE-012: the 429 that ended the exhaustion (the key's first: the suite sends nothing after a 429 but
 * RATE-007's request) asks for no wait that outlasts the window X-RateLimit-Reset names by more than
 * RETRY_AFTER_PAST_RESET_MS. Retry-After in milliseconds (60000) asks for 16 hours when Reset is a minute away.
 */
export function judgeRetryAfterBound(ctx: ConformanceContext, reading: Reading): void {
  const retry = retryAfterMs(reading);
  const reset = resetMs(reading);
  if (retry === undefined || reset === undefined) ctx.skip('the 429 has no usable Retry-After or X-RateLimit-Reset (see RATE-005, RATE-002)');
  const shown = reading.response.headers['retry-after'];
  ctx.check(
    retry <= Math.max(0, reset) + RETRY_AFTER_PAST_RESET_MS,
    `Retry-After ending no more than ${duration(RETRY_AFTER_PAST_RESET_MS)} after X-RateLimit-Reset (the time "at which the limit resets")`,
    () =>
      `Retry-After ${shown} asks for ${duration(retry)}, but X-RateLimit-Reset ${reading.reset} is ${duration(Math.max(0, reset))} away: ` +
      'the two headers contradict each other (a Retry-After in milliseconds?)',
    reading.response,
  );
}
