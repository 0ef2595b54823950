import { describe, expect, it } from 'vitest';
import type { ApiResponse, TargetClient } from '../../src/client/index.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';
import { exhaust } from '../../suites/support/rate-exhaustion.ts';

/** What one request of the exhaustion key gets: status, Remaining, Reset (Limit is 2). */
type Answer = [status: number, remaining: number, reset: number];

function response([status, remaining, reset]: Answer): ApiResponse {
  const headers = { 'x-ratelimit-limit': '2', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset) };
  return { status, headers, exchange: { startedAt: 0, durationMs: 1 } } as unknown as ApiResponse;
}

/** A context whose dedicated exhaustion key gets `answers` in turn (the main key's one request is served). */
function scripted(answers: Answer[]): ConformanceContext {
  const queue = [...answers];
  const exhaustClient = { listPets: async () => response(queue.shift() ?? [500, 0, 0]) } as unknown as TargetClient;
  const mainClient = { listPets: async () => response([200, 50, 100]) } as unknown as TargetClient;
  return {
    run: { profile: 'standard', exhaustApiKey: 'exhaust-key' },
    client: mainClient,
    clientWithKey: () => exhaustClient,
    budgetLeft: () => undefined,
  } as unknown as ConformanceContext;
}

describe('exhaust: the window a 429 ends, seen whole', () => {
  it('counts a window from its first request: two served, then the 429', async () => {
    const result = await exhaust(
      scripted([
        [200, 1, 100],
        [200, 0, 100],
        [429, 0, 100],
      ]),
    );
    expect(result.kind === 'limited' && result.wholeWindow).toEqual({ limit: 2, served: 2, lastRemaining: 0 });
  });

  it('starts the count again at a window that turned to the same Remaining: one served, then the 429, is one early', async () => {
    // The paced first request, then the window turns (Reset 100 → 102) and its first request says Remaining 1 again.
    const result = await exhaust(
      scripted([
        [200, 1, 100],
        [200, 1, 102],
        [429, 1, 102],
      ]),
    );
    expect(result.kind === 'limited' && result.wholeWindow).toEqual({ limit: 2, served: 1, lastRemaining: 1 });
  });

  it('counts a window that turned mid-way from its first request, when it then serves its limit', async () => {
    const result = await exhaust(
      scripted([
        [200, 1, 100],
        [200, 1, 102],
        [200, 0, 102],
        [429, 0, 102],
      ]),
    );
    expect(result.kind === 'limited' && result.wholeWindow).toEqual({ limit: 2, served: 2, lastRemaining: 0 });
  });

  it('judges no whole window when the window turned at a request that did not open it (Remaining below Limit − 1)', async () => {
    const result = await exhaust(
      scripted([
        [200, 1, 100],
        [200, 0, 102],
        [429, 0, 102],
      ]),
    );
    expect(result.kind).toBe('limited');
    expect(result.kind === 'limited' && result.wholeWindow).toBeUndefined();
  });

  it('judges no whole window when the 429 names another Reset than the window it follows', async () => {
    const result = await exhaust(
      scripted([
        [200, 1, 100],
        [200, 0, 100],
        [429, 0, 160],
      ]),
    );
    expect(result.kind === 'limited' && result.wholeWindow).toBeUndefined();
  });
});

describe('exhaust: a key that promises more than the suite spends', () => {
  it('is probed within its promise, and a 429 there is judged, a window that turned on the way included', async () => {
    // Remaining 1998 promises far more than the 1,000 the suite spends; the window turns at the first probe
    // (a short window on a slow machine) and the next probe is refused all the same.
    const result = await exhaust(
      scripted([
        [200, 1998, 100],
        [200, 1999, 102],
        [429, 1999, 102],
      ]),
    );
    expect(result.kind).toBe('limited');
    expect(result.kind === 'limited' && result.previous.remaining).toBe(1999);
  });

  it('counts again from a window that turned to the same Remaining, told by its later Reset', async () => {
    // The first reading says 1999 at Reset 100; the window turns before the first probe, whose answer is
    // the new window's first and says 1999 again (Reset 102); the second probe is served (1998), and the
    // next one, counted from the turn, is refused.
    const result = await exhaust(
      scripted([
        [200, 1999, 100],
        [200, 1999, 102],
        [200, 1998, 102],
        [429, 1998, 102],
      ]),
    );
    expect(result.kind).toBe('limited');
    expect(result.kind === 'limited' && result.previous.remaining).toBe(1998);
    expect(result.kind === 'limited' && result.sent).toBe(2);
  });

  it('stays untested as too large when its promise holds, or its window turns twice', async () => {
    const kept = await exhaust(
      scripted([
        [200, 1998, 100],
        [200, 1997, 100],
        [200, 1996, 100],
      ]),
    );
    expect(kept).toMatchObject({ kind: 'skipped', code: 'key-too-large' });
    const turning = await exhaust(
      scripted([
        [200, 1997, 100],
        [200, 1998, 102],
        [200, 1999, 104],
      ]),
    );
    expect(turning).toMatchObject({ kind: 'skipped', code: 'key-too-large' });
  });
});

describe('exhaust: a key too large to spend, whose Limit is a number of the plan table', () => {
  /** A dedicated key saying Limit 1000 that refuses after `serves` requests of its window (turning once at `turnAt`). */
  function planLie(serves: number, turnAt?: number): { ctx: ConformanceContext; sent: () => number } {
    let sent = 0;
    let inWindow = 0;
    let reset = 100;
    const answer = (): ApiResponse => {
      sent += 1;
      if (turnAt !== undefined && sent === turnAt) [reset, inWindow] = [reset + 60, 0];
      inWindow += 1;
      const refused = inWindow > serves;
      const remaining = refused ? 0 : 1000 - inWindow;
      const headers = { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(reset) };
      return { status: refused ? 429 : 200, headers, exchange: { startedAt: 0, durationMs: 1 } } as unknown as ApiResponse;
    };
    const client = { listPets: async () => answer() } as unknown as TargetClient;
    const ctx = {
      run: { profile: 'standard', exhaustApiKey: 'exhaust-key' },
      client: { listPets: async () => response([200, 50, 100]) },
      clientWithKey: () => client,
      budgetLeft: () => 600 - sent,
    } as unknown as ConformanceContext;
    return { ctx, sent: () => sent };
  }

  it('probes as much of the minute as the budget holds: a Business key serving 200 of its 1000 gets its 429 judged', async () => {
    const { ctx } = planLie(200);
    const result = await exhaust(ctx);
    expect(result.kind).toBe('limited');
    expect(result.kind === 'limited' && result.previous.remaining).toBe(800);
  });

  it('counts again from a window that turned mid-probe, as far as the budget still holds', async () => {
    const { ctx } = planLie(200, 150);
    const result = await exhaust(ctx);
    expect(result.kind === 'limited' && result.previous.remaining).toBe(800);
  });

  it('a key that keeps its promise is left untested within the budget, one request kept for RATE-007', async () => {
    const { ctx, sent } = planLie(1000);
    const result = await exhaust(ctx);
    expect(result.kind).toBe('skipped');
    expect(sent()).toBeLessThanOrEqual(599);
  });
});
