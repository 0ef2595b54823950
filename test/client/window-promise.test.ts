import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/index.ts';
import { createClient } from '../../src/client/index.ts';
import { createInProcessRateLimitMemory } from '../../src/client/rate-limit-memory.ts';
import { brokenWindowPromise, keyedState } from '../../src/client/pacing.ts';
import { createContract } from '../../src/contract/index.ts';
import { fakeClock, rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'test-key-window-promise-0004';
const ERROR_429 = '{"code":"rate_limited","message":"slow down","status":429}';

type Answer = (now: number) => { status: number; headers: Record<string, string> };

/** A server whose answers are scripted in order; the last one repeats. */
async function scripted(answers: Answer[], clock: { now(): number }) {
  return startServer((_req, res) => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    const { status, headers } = answer(clock.now());
    sendJson(res, status, status === 429 ? ERROR_429 : '[]', headers);
  });
}

const served =
  (remaining: number, limit: number, inSeconds = 30): Answer =>
  (now) => ({ status: 200, headers: rateHeaders(now, remaining, limit, inSeconds) });
const refused =
  (limit: number, inSeconds = 30): Answer =>
  (now) => ({ status: 429, headers: { ...rateHeaders(now, 0, limit, inSeconds), 'Retry-After': String(inSeconds) } });

describe("client: a window's first 429 held to the answer before it (RATE-004)", () => {
  it('refuses to take as pacing the first 429 right after its window said 800 of 1000 were left (the plan lie)', async () => {
    const clock = fakeClock();
    const server = await scripted([served(800, 1000), refused(1000)], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets();
    await expect(client.listPets()).rejects.toMatchObject({
      name: 'HarnessError',
      code: 'ERR_RATE_LIMIT_CONTRADICTED',
      message: expect.stringMatching(/first 429 .*X-RateLimit-Limit 1000.*X-RateLimit-Remaining 800/),
    });
    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([]);
  });

  it('knows the first 429 across the clients of one key, through their shared memory', async () => {
    const clock = fakeClock();
    const memory = createInProcessRateLimitMemory();
    const server = await scripted([served(0, 60), refused(60), served(59, 60), refused(60), served(59, 60)], clock);
    const first = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, sharedRateLimit: memory });
    await first.listPets();
    // Waits out Remaining 0, then a 429 anyway: the window was not said to have more; waited, retried.
    await first.listPets();
    const second = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, sharedRateLimit: memory });
    // The run's second 429 on the key, after "59 left": maybe a ban the first one earned, paced, not judged here.
    const response = await second.listPets();
    expect([response.status, response.exchange.retries]).toEqual([200, 1]);
    expect(memory.read()?.refusals).toBe(2);
  });

  it("counts a 429 to no key as the run's first: the key's own first 429 after it is waited out, not judged", async () => {
    const clock = fakeClock();
    const server = await scripted([refused(60), served(40, 60), refused(60), served(59, 60)], clock);
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await expect(client.listPets(undefined, { auth: 'none', retryOn429: false })).resolves.toMatchObject({ status: 429 });
    clock.set(clock.now() + 60_000);
    await client.listPets();
    const response = await client.listPets();
    expect([response.status, response.exchange.retries]).toEqual([200, 1]);
  });

  it('takes as pacing a 429 after a promise small enough for a race, of another window, or to another key', async () => {
    const cases: Array<{ name: string; answers: Answer[]; auth?: 'none' }> = [
      { name: 'Remaining 10 of 60', answers: [served(10, 60), refused(60), served(59, 60)] },
      { name: "a longer window's 429 (the day binds)", answers: [served(40, 60), refused(1000, 3600), served(59, 60)] },
      { name: 'an answer to no key before it', answers: [served(40, 60), refused(60), served(59, 60)], auth: 'none' },
    ];
    for (const { name, answers, auth } of cases) {
      const clock = fakeClock();
      const server = await scripted(answers, clock);
      const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, maxWaitMs: 7_200_000 });
      await client.listPets(undefined, auth ? { auth } : undefined);
      const response = await client.listPets();
      expect(response.status, name).toBe(200);
      expect(response.exchange.retries, name).toBe(1);
    }
  });

  it('is decided by the two states alone: same Limit, Reset within a second, a promise of a quarter of Limit and 20 at least', () => {
    const at = Date.UTC(2025, 0, 1, 12, 0, 0);
    const state = (remaining: number, limit: number, reset: number, status: number, previous?: ReturnType<typeof keyedState>) =>
      keyedState({ limit, remaining, reset, resetAt: reset * 1000, observedAt: at }, previous, status, true);
    const reset = at / 1000 + 30;
    const before = state(250, 1000, reset, 200);
    expect(brokenWindowPromise(before, state(0, 1000, reset + 1, 429, before))).toMatch(/Remaining 250/);
    expect(brokenWindowPromise(state(249, 1000, reset, 200), state(0, 1000, reset, 429))).toBeUndefined();
    expect(brokenWindowPromise(state(19, 60, reset, 200), state(0, 60, reset, 429))).toBeUndefined();
    expect(brokenWindowPromise(state(20, 60, reset, 200), state(0, 60, reset, 429))).toMatch(/Remaining 20/);
    expect(brokenWindowPromise(before, state(0, 1000, reset + 2, 429))).toBeUndefined();
    expect(brokenWindowPromise(before, state(0, 100_000, reset, 429))).toBeUndefined();
    const earlier = state(0, 1000, reset, 429);
    expect(brokenWindowPromise(before, state(0, 1000, reset, 429, earlier))).toBeUndefined();
  });
});
