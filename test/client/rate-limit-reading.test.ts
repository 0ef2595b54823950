import { describe, expect, it } from 'vitest';
import { readRateLimit } from '../../src/client/pacing.ts';

const read = (limit: string, remaining: string, reset: string) =>
  readRateLimit({ 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset': reset }, 1_000);

describe('reading the rate-limit headers for pacing', () => {
  it('reads one integer each as it is written', () => {
    expect(read('60', '0', '1795858613')).toMatchObject({ limit: 60, remaining: 0, reset: 1795858613, resetAt: 1795858613000 });
  });

  it('reads repeated and spaced values as before: the smallest Limit and Remaining, the latest Reset', () => {
    expect(read('60, 10', ' 5 ,7', '1795858613, 1795858620')).toMatchObject({ limit: 10, remaining: 5, reset: 1795858620 });
  });

  it('ignores what is no non-negative safe integer', () => {
    expect(read('9007199254740993', '-1', '1.5')).toMatchObject({ limit: undefined, remaining: undefined, reset: undefined });
    expect(read('', 'ten', '0x10')).toMatchObject({ limit: undefined, remaining: undefined, reset: undefined });
  });
});
