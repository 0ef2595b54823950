import type { ConformanceContext } from '../../src/harness/index.ts';
import { type Reading, resetMs, retryAfterMs } from './rate-readings.ts';

/**
 * RATE-012: the 429 that ended the exhaustion (the key's first: the suite sends nothing after a 429 but
 * RATE-007's request) asks for no wait that outlasts the window X-RateLimit-Reset names by more than
 * RETRY_AFTER_PAST_RESET_MS. Retry-After in milliseconds (60000) asks for 16 hours when Reset is a minute
 * away. The rule (retry-after-within-reset) judges the recorded 429, so rejudge repeats it on the log.
 */
export function judgeRetryAfterBound(ctx: ConformanceContext, reading: Reading): void {
  if (retryAfterMs(reading) === undefined || resetMs(reading) === undefined)
    ctx.skip('the 429 has no usable Retry-After or X-RateLimit-Reset (see RATE-005, RATE-002)');
  ctx.judge('retry-after-within-reset', reading.response, {}, "the key's first 429");
}
