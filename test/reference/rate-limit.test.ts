import { describe, expect, it } from 'vitest';
import { call, createPet, expectErrorBody, expectRateHeaders, manualClock, startServer } from '../support/reference-server.ts';

const SMALL = 'small-key-0000000000';
// 12:00:10 on a minute boundary + 10 s: the minute window turns 50 s later, the day window at midnight.
const START = Date.UTC(2026, 0, 1, 12, 0, 10);

function smallKey(perMinute: number, perDay: number) {
  return { key: SMALL, plan: 'enterprise', perMinute, perDay } as const;
}

describe('reference server: rate limiting', () => {
  it('counts down Remaining, then answers 429 with Retry-After, Remaining 0 and the Error body', async () => {
    const clock = manualClock(START);
    const server = await startServer({ clock, keys: [smallKey(3, 100)] });
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call(server, 'GET', '/pets', { key: SMALL });
      expect(answer.status).toBe(200);
      const headers = expectRateHeaders(answer);
      expect(headers.limit).toBe(3);
      expect(headers.reset).toBe(Date.UTC(2026, 0, 1, 12, 1, 0) / 1000);
      remaining.push(headers.remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);
    clock.advance(500);
    const refused = await call(server, 'GET', '/pets', { key: SMALL });
    expectErrorBody(refused, 429);
    expect(expectRateHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: Date.UTC(2026, 0, 1, 12, 1, 0) / 1000 });
    expect(refused.headers['retry-after']).toBe('50');
  });

  it('does not count refused requests, and serves again once the window turns', async () => {
    const clock = manualClock(START);
    const server = await startServer({ clock, keys: [smallKey(2, 100)] });
    await call(server, 'GET', '/pets', { key: SMALL });
    await call(server, 'GET', '/pets', { key: SMALL });
    for (let i = 0; i < 5; i++) expect((await createPet(server, { name: 'x', categoryId: 1 }, { key: SMALL })).status).toBe(429);
    expect(server.pets).toBe(0);
    clock.advance(49_999);
    expect((await call(server, 'GET', '/pets', { key: SMALL })).headers['retry-after']).toBe('1');
    clock.advance(1);
    const served = await call(server, 'GET', '/pets', { key: SMALL });
    expect(served.status).toBe(200);
    expect(expectRateHeaders(served).remaining).toBe(1);
  });

  it('enforces the per-day limit across minute windows and reports the day window when it binds', async () => {
    const clock = manualClock(START);
    const server = await startServer({ clock, keys: [smallKey(4, 6)] });
    for (let i = 0; i < 4; i++) await call(server, 'GET', '/pets', { key: SMALL });
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(429);
    clock.advance(60_000);
    const first = expectRateHeaders(await call(server, 'GET', '/pets', { key: SMALL }));
    expect(first).toEqual({ limit: 6, remaining: 1, reset: Date.UTC(2026, 0, 2) / 1000 });
    await call(server, 'GET', '/pets', { key: SMALL });
    const refused = await call(server, 'GET', '/pets', { key: SMALL });
    expectErrorBody(refused, 429);
    expect(expectRateHeaders(refused)).toEqual({ limit: 6, remaining: 0, reset: Date.UTC(2026, 0, 2) / 1000 });
    expect(Number(refused.headers['retry-after'])).toBe((Date.UTC(2026, 0, 2) - clock.now()) / 1000);
    clock.advance(120_000);
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(429);
    clock.set(Date.UTC(2026, 0, 2));
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(200);
  });

  it('uses the configured window lengths', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 1, 12, 0, 0, 500));
    const server = await startServer({ clock, keys: [smallKey(1, 3)], rateWindowMs: 2_000, dayWindowMs: 10_000 });
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(200);
    const refused = await call(server, 'GET', '/pets', { key: SMALL });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('2');
    clock.advance(1_500);
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(200);
  });

  it("starts a first-request key's minute at its first request, and the next one at the first request after it ends", async () => {
    const clock = manualClock(START);
    const anchored = { ...smallKey(2, 100), windowStart: 'first-request' } as const;
    const aligned = { key: 'aligned-key-000000000', plan: 'enterprise', perMinute: 2, perDay: 100 } as const;
    const server = await startServer({ clock, keys: [anchored, aligned] });
    // 12:00:10: the clock's window turns at 12:01:00, the key's own a minute after its first request.
    expect(expectRateHeaders(await call(server, 'GET', '/pets', { key: aligned.key })).reset).toBe(Date.UTC(2026, 0, 1, 12, 1, 0) / 1000);
    const first = await call(server, 'GET', '/pets', { key: SMALL });
    expect(expectRateHeaders(first)).toEqual({ limit: 2, remaining: 1, reset: Date.UTC(2026, 0, 1, 12, 1, 10) / 1000 });
    clock.advance(20_000);
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(200);
    const refused = await call(server, 'GET', '/pets', { key: SMALL });
    expectErrorBody(refused, 429);
    expect(refused.headers['retry-after']).toBe('40');
    // Past the clock's turn, the key's window still holds; it ends a whole minute after its first request.
    clock.set(Date.UTC(2026, 0, 1, 12, 1, 9, 999));
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(429);
    clock.advance(1);
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(200);
    // A key left alone past its window's end starts the next at its next request (12:03:15.5), not on the
    // clock; Reset counts whole seconds, rounded up.
    clock.advance(125_500);
    expect(expectRateHeaders(await call(server, 'GET', '/pets', { key: SMALL })).reset).toBe(Date.UTC(2026, 0, 1, 12, 4, 16) / 1000);
  });

  it('carries well-formed rate-limit headers on 400, 401, 404, 405, 413, 415 and 429', async () => {
    const clock = manualClock(START);
    const server = await startServer({ clock, keys: [smallKey(8, 100)], bodyLimit: 64 });
    const answers = [
      await createPet(server, '{', { key: SMALL }),
      await call(server, 'GET', '/pets', { key: null }),
      await call(server, 'GET', '/pets/77', { key: SMALL }),
      await call(server, 'PUT', '/pets', { key: SMALL }),
      await createPet(server, { name: 'x'.repeat(100), categoryId: 1 }, { key: SMALL }),
      await call(server, 'POST', '/pets', { key: SMALL, body: 'x', headers: { 'content-type': 'text/plain' } }),
      await call(server, 'GET', '/pets?limit=0', { key: SMALL }),
    ];
    expect(answers.map((a) => a.status)).toEqual([400, 401, 404, 405, 413, 415, 400]);
    for (let i = 0; i < 5; i++) answers.push(await call(server, 'GET', '/pets', { key: SMALL }));
    expect(answers.at(-1)?.status).toBe(429);
    // Six requests charged the key (the 401 did not), so two more are served before the 429s.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    for (const answer of answers) {
      if (answer.status !== 200) expectErrorBody(answer);
      expectRateHeaders(answer);
    }
  });

  it('throttles unauthenticated clients per address, still with the Error body', async () => {
    const clock = manualClock(START);
    const server = await startServer({ clock, anonymousLimits: { perMinute: 2, perDay: 100 } });
    expectErrorBody(await call(server, 'GET', '/pets', { key: null }), 401);
    expect(expectRateHeaders(await call(server, 'GET', '/pets', { key: 'wrong' })).remaining).toBe(0);
    const refused = await call(server, 'GET', '/pets', { key: null });
    expectErrorBody(refused, 429);
    expect(refused.headers['retry-after']).toBe('50');
    expect((await call(server, 'GET', '/pets')).status).toBe(200);
  });
});

describe('reference rate limiter: anonymous clients by address', () => {
  it('stays bounded however many addresses come (IPv6 clients choose theirs), and keeps counting the newest', async () => {
    const { createRateLimiter } = await import('../../src/reference/rate-limiter.ts');
    const { seamsOf } = await import('../../src/reference/seams.ts');
    const limiter = createRateLimiter({ minuteMs: 60_000, dayMs: 86_400_000 }, seamsOf({}));
    const limits = { perMinute: 2, perDay: 100 };
    const now = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 30_000; i += 1) limiter.consume(limiter.anonymousBucket(`2001:db8::${i.toString(16)}`, now), limits, now);
    expect(limiter.anonymousAddresses).toBeLessThanOrEqual(10_000);
    const newest = '2001:db8::ffff:1';
    expect(limiter.consume(limiter.anonymousBucket(newest, now), limits, now).retryAfter).toBeUndefined();
    expect(limiter.consume(limiter.anonymousBucket(newest, now), limits, now).retryAfter).toBeUndefined();
    // The third request of the same address in the same minute is refused: its bucket was kept.
    expect(limiter.consume(limiter.anonymousBucket(newest, now), limits, now).retryAfter).toBeGreaterThan(0);
  });
});
