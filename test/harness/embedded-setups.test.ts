import { describe, expect, it } from 'vitest';
import { EMBEDDED_DAY_WINDOW_MS, EMBEDDED_EXHAUST_LIMIT, EMBEDDED_SETUPS, embeddedOptions, embeddedSetup } from '../../src/harness/target.ts';
import { PLANS } from '../../src/config/plans.ts';
import { INT64_MAX } from '../../src/text/json.ts';
import { startReferenceServer } from '../../src/reference/index.ts';

const KEYS = { apiKey: 'main-key', exhaustApiKey: 'exhaust-key', freeApiKey: 'free-key', isolationApiKey: 'isolation-key' };

// The setups the mutation run starts the embedded reference in reach what a default run cannot: the
// daily window binding, both windows binding at once, ids at the end of int64.
async function spend(setup: 'day-window' | 'both-windows') {
  const { waitMs: _waitMs, ...options } = embeddedOptions(setup, KEYS);
  const server = await startReferenceServer(options);
  try {
    const get = () => fetch(`${server.url}/pets?limit=1`, { headers: { authorization: 'Bearer exhaust-key' } });
    // Until the first 429 (a window may turn on the way: the count then starts again).
    const served = [await get()];
    while (served.at(-1)!.status !== 429 && served.length < 4 * EMBEDDED_EXHAUST_LIMIT) served.push(await get());
    const created = await fetch(`${server.url}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer main-key', 'content-type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    });
    return { served, created: await created.text() };
  } finally {
    await server.close();
  }
}

const DAY_POLICY = new RegExp(`;w=${EMBEDDED_DAY_WINDOW_MS / 1000}$`);

describe('embedded setups', () => {
  it('names only the known setups', () => {
    expect(embeddedSetup(undefined)).toBe('default');
    expect(embeddedSetup('day-window')).toBe('day-window');
    expect(() => embeddedSetup('tomorrow')).toThrow(/CONFORMANCE_EMBEDDED_SETUP/);
  });

  // RATE-008 spends this key at standard: its limits are the interface's Free row, in every setup.
  it.each(EMBEDDED_SETUPS)('%s: a Free-plan key at the limits of the plan table', async (setup) => {
    const { waitMs: _waitMs, ...options } = embeddedOptions(setup, KEYS);
    const server = await startReferenceServer(options);
    try {
      const response = await fetch(`${server.url}/pets?limit=1`, { headers: { authorization: 'Bearer free-key' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(PLANS.free.perMinute));
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(PLANS.free.perMinute - 1));
    } finally {
      await server.close();
    }
  });

  // RATE-011 observes the isolation key so that the exhaustion finds its own key's window whole: the two
  // keys have the same limits in every setup, and spending one leaves the other's window untouched.
  it.each(EMBEDDED_SETUPS)('%s: the isolation key is limited like the exhaustion key and counts apart', async (setup) => {
    const { waitMs: _waitMs, ...options } = embeddedOptions(setup, KEYS);
    const server = await startReferenceServer(options);
    try {
      const get = (key: string) => fetch(`${server.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      // Until its first 429 (a window may turn on the way: the count then starts again).
      const isolation = [await get('isolation-key')];
      while (isolation.at(-1)!.status !== 429 && isolation.length < 4 * EMBEDDED_EXHAUST_LIMIT) isolation.push(await get('isolation-key'));
      const exhaust = await get('exhaust-key');
      expect(isolation.at(-1)!.status).toBe(429);
      expect(exhaust.status).toBe(200);
      for (const header of ['x-ratelimit-limit', 'ratelimit-policy']) expect(isolation[0]!.headers.get(header)).toBe(exhaust.headers.get(header));
      expect(exhaust.headers.get('x-ratelimit-remaining')).toBe(String(EMBEDDED_EXHAUST_LIMIT - 1));
    } finally {
      await server.close();
    }
  });

  // The exhaustion then starts a whole window away from its turn, with no wait for a window on the clock.
  it("default: the exhaustion and isolation keys' minute starts at their first request", async () => {
    const { waitMs, ...options } = embeddedOptions('default', KEYS);
    const server = await startReferenceServer(options);
    try {
      for (const key of ['exhaust-key', 'isolation-key']) {
        const before = Date.now();
        const response = await fetch(`${server.url}/pets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
        // A window on the clock would end less than a window after `before` (but in the rare run where
        // it turned between the two).
        expect(Number(response.headers.get('x-ratelimit-reset')) * 1000).toBeGreaterThanOrEqual(before + waitMs);
      }
    } finally {
      await server.close();
    }
  });

  it('day-window: the daily window is the one reported and the one that refuses; ids start near INT64_MAX', async () => {
    const { served, created } = await spend('day-window');
    for (const response of served) {
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(EMBEDDED_EXHAUST_LIMIT));
      expect(response.headers.get('ratelimit-policy')).toMatch(DAY_POLICY);
    }
    expect(served.at(-1)!.status).toBe(429);
    expect(served.slice(0, -1).every((r) => r.status === 200)).toBe(true);
    expect(created).toMatch(/^\{"id":\d+,/);
    expect(BigInt(/^\{"id":(\d+),/.exec(created)![1]!)).toBeGreaterThan(INT64_MAX - 100n);
  });

  it('both-windows: the 429 names the day, which turns after the minute', async () => {
    const { served, created } = await spend('both-windows');
    const refused = served.at(-1)!;
    expect(refused.status).toBe(429);
    // Served, the two windows have as many left (the minute is named); refused, the day is.
    expect(served[0]!.headers.get('ratelimit-policy')).toMatch(new RegExp(`"minute";q=${EMBEDDED_EXHAUST_LIMIT};w=2$`));
    expect(refused.headers.get('ratelimit-policy')).toMatch(DAY_POLICY);
    // Ids where a double holds every 1024th integer only: a store keyed by doubles mixes neighbours up.
    const id = BigInt(/^\{"id":(\d+),/.exec(created)![1]!);
    expect(id).toBeGreaterThan(2n ** 62n);
    expect(Number(id)).toBe(Number(id + 1n));
  });
});
