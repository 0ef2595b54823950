import { describe, expect, it } from 'vitest';
import { type Finding, runChecks } from '../../src/checks/index.ts';
import { createClient, type Exchange } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { fakeClock, rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'test-key-0003';
const ERROR_429 = '{"code":"rate_limited","message":"slow down","status":429}';

/** A server whose answers are scripted in order; the last one repeats. */
async function scripted(answers: Array<(now: number) => { status: number; headers: Record<string, string>; body?: string }>, clock: { now(): number }) {
  return startServer((_req, res, _seen) => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    const { status, headers, body } = answer(clock.now());
    sendJson(res, status, body ?? (status === 429 ? ERROR_429 : '[]'), headers);
  });
}

describe('client: pacing by X-RateLimit-*', () => {
  it('waits until Reset (plus a margin) when the last Remaining was 0', async () => {
    const clock = fakeClock();
    const server = await scripted(
      [(now) => ({ status: 200, headers: rateHeaders(now, 0, 60, 7) }), (now) => ({ status: 200, headers: rateHeaders(now) })],
      clock,
    );
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets();
    expect(client.rateLimit).toMatchObject({ limit: 60, remaining: 0 });
    expect(clock.sleeps).toEqual([]);
    await client.listPets();
    expect(clock.sleeps).toEqual([7250]);
    await client.listPets();
    expect(clock.sleeps).toEqual([7250]);
  });

  it('stops waiting with ERR_ABORTED when its abort signal fires (an interrupted run, a timed-out test)', async () => {
    // The real clock: the wait would last 50 s; the signal ends it after 200 ms.
    const server = await scripted([() => ({ status: 200, headers: rateHeaders(Date.now(), 0, 60, 50) })], { now: () => Date.now() });
    const signal = AbortSignal.timeout(200);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, abortSignal: () => signal });
    await client.listPets();
    const started = performance.now();
    await expect(client.listPets()).rejects.toMatchObject({ code: 'ERR_ABORTED' });
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it.each([
    ['a Unix time in milliseconds', (now: number) => String(now + 4000)],
    ['a delta in seconds', () => '4'],
  ])('reads a Reset that is %s sensibly for waiting', async (_label, reset) => {
    const clock = fakeClock();
    const headers = (now: number) => ({ 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset(now) });
    const server = await scripted([(now) => ({ status: 200, headers: headers(now) }), (now) => ({ status: 200, headers: rateHeaders(now) })], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    const first = await client.listPets();
    expect(first.findings.map((f) => f.requirementId)).toContain('RATE-002');
    await client.listPets();
    expect(clock.sleeps).toEqual([4250]);
  });

  it('does not crash or wait on malformed and duplicated values', async () => {
    const clock = fakeClock();
    const server = await scripted(
      [
        (now) => ({
          status: 200,
          headers: { 'X-RateLimit-Limit': 'ten', 'X-RateLimit-Remaining': '-1', 'X-RateLimit-Reset': `${Math.floor(now / 1000) + 9}.5` },
        }),
      ],
      clock,
    );
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets();
    expect(client.rateLimit).toMatchObject({ limit: undefined, remaining: undefined, reset: undefined });
    await client.listPets();
    expect(clock.sleeps).toEqual([]);
  });

  it('reads duplicated headers conservatively: the smallest Remaining, the latest Reset', async () => {
    const clock = fakeClock();
    const reset = Math.floor(clock.now() / 1000);
    const server = await scripted(
      [
        () => ({ status: 200, headers: { 'X-RateLimit-Limit': '5, 5', 'X-RateLimit-Remaining': '3, 0', 'X-RateLimit-Reset': `${reset + 2}, ${reset + 3}` } }),
        (now) => ({ status: 200, headers: rateHeaders(now) }),
      ],
      clock,
    );
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets();
    await client.listPets();
    expect(clock.sleeps).toEqual([3250]);
  });

  it('sends at once with pace: false', async () => {
    const clock = fakeClock();
    const server = await scripted([(now) => ({ status: 200, headers: rateHeaders(now, 0, 60, 30) })], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets();
    await client.listPets({}, { pace: false });
    expect(clock.sleeps).toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up with ERR_RATE_LIMITED rather than wait longer than maxWaitMs', async () => {
    const clock = fakeClock();
    const server = await scripted([(now) => ({ status: 200, headers: rateHeaders(now, 0, 1000, 86_000) })], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets();
    await expect(client.listPets()).rejects.toMatchObject({ code: 'ERR_RATE_LIMITED', message: expect.stringContaining('86001 s') });
    expect(server.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("waits while the waits fit before the profile's deadline, then gives up with ERR_RATE_LIMITED", async () => {
    // A target that always says Remaining 0 for 30 s more: two waits fit in 70 s, the third does not.
    const clock = fakeClock();
    const server = await scripted([(now) => ({ status: 200, headers: rateHeaders(now, 0, 60, 30) })], clock);
    const waitDeadline = clock.now() + 70_000;
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, waitDeadline });
    await client.listPets();
    await client.listPets();
    await client.listPets();
    expect(clock.sleeps).toHaveLength(2);
    await expect(client.listPets()).rejects.toMatchObject({
      code: 'ERR_RATE_LIMITED',
      message: expect.stringContaining("past the time this run's profile allows"),
    });
    expect(server.requests).toHaveLength(3);
  });
});

describe('client: an unintended 429 is waited out and retried', () => {
  it('honours Retry-After in delay-seconds and counts the retry on the final exchange', async () => {
    const clock = fakeClock();
    const server = await scripted(
      [(now) => ({ status: 429, headers: { ...rateHeaders(now, 0, 60, 50), 'Retry-After': '3' } }), (now) => ({ status: 200, headers: rateHeaders(now) })],
      clock,
    );
    const seen: Array<[Exchange, Finding[]]> = [];
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, onExchange: (e, f) => seen.push([e, f]) });
    const response = await client.listPets();
    expect(response.status).toBe(200);
    expect(clock.sleeps).toEqual([3250]);
    expect(client.requestCount).toBe(2);
    expect(response.exchange.retries).toBe(1);
    expect(seen.map(([e]) => e.response?.status)).toEqual([429, 200]);
    expect(seen[0]![0].retries).toBeUndefined();
    // The 429 itself is nobody's fault: it is documented, and its findings are only what the checks saw.
    expect(seen[0]![1]).toEqual([]);
  });

  it('honours Retry-After as an HTTP-date', async () => {
    const clock = fakeClock(Date.UTC(2025, 0, 1, 12, 0, 0));
    const server = await scripted(
      [
        () => ({ status: 429, headers: { ...rateHeaders(clock.now(), 0), 'Retry-After': 'Wed, 01 Jan 2025 12:00:05 GMT' } }),
        (now) => ({ status: 200, headers: rateHeaders(now) }),
      ],
      clock,
    );
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets();
    expect(clock.sleeps).toEqual([5250]);
  });

  it('falls back to Reset when Retry-After is absent, and still records the RATE-005 finding', async () => {
    const clock = fakeClock();
    const server = await scripted(
      [(now) => ({ status: 429, headers: rateHeaders(now, 0, 60, 12) }), (now) => ({ status: 200, headers: rateHeaders(now) })],
      clock,
    );
    const findings: Finding[] = [];
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, onExchange: (_e, f) => findings.push(...f) });
    await client.listPets();
    expect(clock.sleeps).toEqual([12_250]);
    expect(findings.map((f) => f.requirementId)).toEqual(['RATE-005']);
  });

  it('backs off exponentially with jitter when neither Retry-After nor a usable Reset is given', async () => {
    const clock = fakeClock();
    const answers = [0, 1, 2].map(() => () => ({ status: 429, headers: {} }));
    const server = await scripted([...answers, (now: number) => ({ status: 200, headers: rateHeaders(now) })], clock);
    const jitter = [0, 0.5, 1];
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, random: () => jitter.shift() ?? 0 });
    const response = await client.listPets();
    expect(clock.sleeps).toEqual([1000, 2500, 6000]);
    expect(response.exchange.retries).toBe(3);
    expect(client.requestCount).toBe(4);
  });

  it('throws ERR_RATE_LIMITED after maxRetries, having sent 1 + maxRetries requests', async () => {
    const clock = fakeClock();
    const server = await scripted([(now) => ({ status: 429, headers: { ...rateHeaders(now, 0), 'Retry-After': '1' } })], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, maxRetries: 2 });
    await expect(client.listPets()).rejects.toMatchObject({ name: 'HarnessError', code: 'ERR_RATE_LIMITED' });
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it('gives up with ERR_RATE_LIMITED when Retry-After asks for more than maxWaitMs', async () => {
    const clock = fakeClock();
    // A day's limit spent: Retry-After and Reset agree on an hour, longer than the client waits.
    const server = await scripted([(now) => ({ status: 429, headers: { ...rateHeaders(now, 0, 60, 3600), 'Retry-After': '3600' } })], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await expect(client.listPets()).rejects.toMatchObject({ code: 'ERR_RATE_LIMITED', message: expect.stringContaining('Retry-After: 3600') });
    expect(server.requests).toHaveLength(1);
  });

  it("names a first 429 whose Retry-After outlasts its own Reset, past what it may wait, as the target's contradiction", async () => {
    const clock = fakeClock();
    // A Unix timestamp sent as delay-seconds: 56 years, while X-RateLimit-Reset is 30 s away.
    const server = await scripted([(now) => ({ status: 429, headers: { ...rateHeaders(now, 0), 'Retry-After': String(Math.floor(now / 1000) + 30) } })], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await expect(client.listPets()).rejects.toMatchObject({
      name: 'HarnessError',
      code: 'ERR_RETRY_AFTER_CONTRADICTED',
      message: expect.stringMatching(/first 429 .* X-RateLimit-Reset: \d+ is 30 s away/),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('waits a Retry-After up to a minute past Reset, and judges only the first 429 against it (a later one may be a ban)', async () => {
    const clock = fakeClock();
    const server = await scripted(
      [
        (now) => ({ status: 429, headers: { ...rateHeaders(now, 0, 60, 30), 'Retry-After': '90' } }),
        (now) => ({ status: 429, headers: { ...rateHeaders(now, 0, 60, 30), 'Retry-After': '86400' } }),
      ],
      clock,
    );
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await expect(client.listPets()).rejects.toMatchObject({ code: 'ERR_RATE_LIMITED', message: expect.stringContaining('Retry-After: 86400') });
    expect(clock.sleeps).toEqual([90_250]);
    expect(server.requests).toHaveLength(2);
  });

  it('never retries at once: Retry-After 0 still waits a second', async () => {
    const clock = fakeClock();
    const server = await scripted(
      [(now) => ({ status: 429, headers: { ...rateHeaders(now, 0), 'Retry-After': '0' } }), (now) => ({ status: 200, headers: rateHeaders(now) })],
      clock,
    );
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets();
    expect(clock.sleeps).toEqual([1000]);
  });

  it('returns the 429 untouched with retryOn429: false', async () => {
    const clock = fakeClock();
    const server = await scripted([(now) => ({ status: 429, headers: { ...rateHeaders(now, 0), 'Retry-After': '5' } })], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    const response = await client.listPets({}, { retryOn429: false, pace: false });
    expect(response.status).toBe(429);
    expect(response.findings).toEqual([]);
    expect(clock.sleeps).toEqual([]);
  });
});
