import { describe, expect, it } from 'vitest';
import { ietfRateLimitAgrees } from '../../src/checks/ietf-rate-limit-checks.ts';
import { rateLimitHeadersPresent, rateLimitHeadersWellFormed, retryAfterOn429, retryAfterWellFormed } from '../../src/checks/rate-limit-checks.ts';
import { ctx, headers, NOW } from './context.ts';

const NOW_S = Math.floor(NOW / 1000);

describe('rate-limit-headers-present (RATE-001)', () => {
  it('passes all three, on errors and 429 too', () => {
    for (const status of [200, 401, 429]) expect(rateLimitHeadersPresent.run(ctx({ status }))).toBeUndefined();
  });
  it('fails and names each missing header', () => {
    const violation = rateLimitHeadersPresent.run(ctx({ status: 401, headers: headers({ 'x-ratelimit-limit': undefined, 'x-ratelimit-reset': undefined }) }));
    expect(violation?.actual).toBe('X-RateLimit-Limit, X-RateLimit-Reset missing on a 401 response');
  });
  it('skips paths outside the interface', () => {
    expect(rateLimitHeadersPresent.run(ctx({ operationId: undefined, headers: {} }))).toBeUndefined();
  });
});

describe('rate-limit-headers-well-formed (RATE-002)', () => {
  const run = (changes: Record<string, string | undefined>) => rateLimitHeadersWellFormed.run(ctx({ headers: headers(changes) }))?.actual;

  it('passes integers with Remaining ≤ Limit and Reset from now to a day ahead (5 s skew allowed)', () => {
    expect(run({})).toBeUndefined();
    expect(run({ 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '0' })).toBeUndefined();
    expect(run({ 'x-ratelimit-remaining': '60' })).toBeUndefined();
    expect(run({ 'x-ratelimit-reset': String(NOW_S - 5) })).toBeUndefined();
    expect(run({ 'x-ratelimit-reset': String(NOW_S + 86_405) })).toBeUndefined();
  });

  it.each(['10, 10', '-1', '1.5', 'ten', '', ' 10', '99999999999999999999'])('fails Limit %j', (value) => {
    expect(run({ 'x-ratelimit-limit': value })).toBe(`X-RateLimit-Limit ${JSON.stringify(value)} is not a single non-negative integer`);
  });

  it('fails Remaining above Limit', () => {
    expect(run({ 'x-ratelimit-remaining': '61' })).toBe('X-RateLimit-Remaining 61 exceeds X-RateLimit-Limit 60');
  });

  it('says when Reset looks like milliseconds', () => {
    expect(run({ 'x-ratelimit-reset': String(NOW + 30_000) })).toMatch(/looks like milliseconds/);
  });

  it('says when Reset looks like a delta', () => {
    expect(run({ 'x-ratelimit-reset': '30' })).toBe('X-RateLimit-Reset 30 looks like a delta in seconds, not a Unix time');
    expect(run({ 'x-ratelimit-reset': '0' })).toMatch(/delta/);
  });

  it('fails a Reset in the past or more than a day ahead', () => {
    expect(run({ 'x-ratelimit-reset': String(NOW_S - 60) })).toBe(`X-RateLimit-Reset ${NOW_S - 60} is 60 s in the past`);
    expect(run({ 'x-ratelimit-reset': String(NOW_S + 86_410) })).toMatch(/more than a day/);
  });

  it('reports every problem at once, and leaves missing headers to RATE-001', () => {
    expect(run({ 'x-ratelimit-limit': 'x', 'x-ratelimit-reset': '5' })).toBe(
      'X-RateLimit-Limit "x" is not a single non-negative integer; X-RateLimit-Reset 5 looks like a delta in seconds, not a Unix time',
    );
    expect(run({ 'x-ratelimit-limit': undefined, 'x-ratelimit-remaining': undefined, 'x-ratelimit-reset': undefined })).toBeUndefined();
  });
});

describe('retry-after-on-429 (RATE-005)', () => {
  const run = (value: string | undefined, status = 429) => retryAfterOn429.run(ctx({ status, headers: headers({ 'retry-after': value }) }));

  it.each(['0', '30', '120', 'Wed, 01 Jan 2025 12:00:30 GMT', 'Wednesday, 01-Jan-25 12:00:30 GMT', 'Wed Jan  1 12:00:30 2025'])('passes %j', (value) => {
    expect(run(value)).toBeUndefined();
  });

  it.each(['-1', '1.5', 'soon', '2025-01-01T12:00:30Z', '30 seconds', 'Wed, 32 Jan 2025 12:00:30 GMT', '10, 10'])('fails %j', (value) => {
    expect(run(value)?.actual).toBe(`Retry-After ${JSON.stringify(value)}`);
  });

  it('fails a 429 without Retry-After', () => {
    expect(run(undefined)?.actual).toBe('no Retry-After header');
  });

  it('applies only to 429', () => {
    expect(run(undefined, 200)).toBeUndefined();
    expect(run(undefined, 503)).toBeUndefined();
  });
});

describe('ietf-ratelimit-agrees (RATE-009)', () => {
  const run = (changes: Record<string, string | undefined>) => ietfRateLimitAgrees.run(ctx({ headers: headers(changes) }))?.actual;

  it('judges nothing when the IETF fields are not sent', () => {
    expect(run({})).toBeUndefined();
  });

  it('passes the current draft and the earlier dictionary form when they agree with X-RateLimit-*', () => {
    expect(run({ 'ratelimit-policy': '"minute";q=60;w=60', ratelimit: '"minute";r=59;t=30' })).toBeUndefined();
    expect(run({ 'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400', ratelimit: '"day";r=900;t=3000, "minute";r=59;t=28' })).toBeUndefined();
    expect(run({ ratelimit: 'limit=60, remaining=59, reset=31' })).toBeUndefined();
    expect(run({ 'ratelimit-policy': '60;w=60' })).toBeUndefined();
  });

  it('fails fields that are not Structured Fields', () => {
    expect(run({ ratelimit: 'remaining: 59' })).toMatch(/RateLimit "remaining: 59" is not a Structured Field/);
    expect(run({ 'ratelimit-policy': 'sixty per minute' })).toMatch(/RateLimit-Policy "sixty per minute" is not a Structured Field/);
    // An empty List reads as no field; beside a RateLimit it leaves that window's quota unannounced.
    expect(run({ 'ratelimit-policy': '' })).toBeUndefined();
    expect(run({ 'ratelimit-policy': '', ratelimit: '"minute";r=59;t=30' })).toMatch(/RateLimit-Policy is sent empty while RateLimit reports a window/);
  });

  it('fails numbers that disagree with X-RateLimit-*', () => {
    expect(run({ 'ratelimit-policy': '"minute";q=100;w=60' })).toBe('the quotas 100 do not include X-RateLimit-Limit 60');
    expect(run({ ratelimit: '"minute";r=40;t=30' })).toBe('RateLimit remaining 40 disagrees with X-RateLimit-Remaining 59');
    expect(run({ ratelimit: '"minute";r=59;t=60' })).toBe('RateLimit says the window resets in 60 s; X-RateLimit-Reset says 30 s');
  });

  it("fails a window for the Limit's quota that is longer than a day or shorter than the time to reset", () => {
    expect(run({ 'ratelimit-policy': '"minute";q=60;w=604800' })).toBe(
      'RateLimit-Policy gives the quota 60 a window of 604800 s; X-RateLimit-Reset is 30 s away and the longest window is a day',
    );
    // A window given in minutes (w=1 for a minute) is shorter than the 30 s left until Reset.
    expect(run({ 'ratelimit-policy': '"minute";q=60;w=1' })).toMatch(/a window of 1 s/);
    // Other quotas (a monthly one, say) may have any window; without w nothing is judged.
    expect(run({ 'ratelimit-policy': '"minute";q=60;w=60, "month";q=100000;w=2592000' })).toBeUndefined();
    expect(run({ 'ratelimit-policy': '"minute";q=60' })).toBeUndefined();
  });
});

describe('retry-after-well-formed (RATE-010, advisory)', () => {
  const run = (status: number, value: string | undefined) => retryAfterWellFormed.run(ctx({ status, headers: headers({ 'retry-after': value }) }))?.actual;

  it('accepts none, delay-seconds and an HTTP-date on any status', () => {
    for (const status of [200, 201, 400, 401, 404, 503]) {
      expect(run(status, undefined)).toBeUndefined();
      expect(run(status, '0')).toBeUndefined();
      expect(run(status, '120')).toBeUndefined();
      expect(run(status, new Date(NOW + 60_000).toUTCString())).toBeUndefined();
    }
  });

  it.each(['undefined', '', 'soon', '-1', '1.5', '60s', 'NaN'])('warns on Retry-After %j outside a 429', (value) => {
    expect(run(200, value)).toBe(`Retry-After ${JSON.stringify(value)} on a 200`);
  });

  it('leaves a 429 to RATE-005 and paths outside the interface alone', () => {
    expect(run(429, 'soon')).toBeUndefined();
    expect(retryAfterWellFormed.run(ctx({ operationId: undefined, headers: headers({ 'retry-after': 'soon' }) }))).toBeUndefined();
  });
});
