import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createClient, createFileRateLimitMemory, createInProcessRateLimitMemory } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { fakeClock, rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();

describe('client: rate-limit state shared between the clients of a run', () => {
  it.each(['file', 'in-process'])('a new client waits for the Reset another client saw, instead of learning it from a 429 (%s)', async (kind) => {
    const dir = mkdtempSync(join(tmpdir(), 'rate-memory-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const clock = fakeClock();
    let served = 0;
    const server = await startServer((_req, res) => {
      served += 1;
      const now = clock.now();
      sendJson(res, 200, '[]', served === 1 ? rateHeaders(now, 0, 60, 5) : rateHeaders(now));
    });
    const memory = kind === 'file' ? createFileRateLimitMemory(join(dir, 'rate-limit.json')) : createInProcessRateLimitMemory();
    const first = createClient({ baseUrl: server.baseUrl, apiKey: 'k-1', contract, clock, sharedRateLimit: memory });
    await first.listPets();
    const second = createClient({ baseUrl: server.baseUrl, apiKey: 'k-1', contract, clock, sharedRateLimit: memory });
    await second.listPets();
    expect(clock.sleeps).toEqual([5250]);
  });

  it('without shared memory the second client knows nothing (the case the memory is for)', async () => {
    const clock = fakeClock();
    const server = await startServer((_req, res) => sendJson(res, 200, '[]', rateHeaders(clock.now(), 0, 60, 5)));
    const first = createClient({ baseUrl: server.baseUrl, apiKey: 'k-1', contract, clock });
    await first.listPets();
    const second = createClient({ baseUrl: server.baseUrl, apiKey: 'k-1', contract, clock });
    await second.listPets();
    expect(clock.sleeps).toEqual([]);
  });

  it('reads nothing from a missing or corrupt file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rate-memory-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    expect(createFileRateLimitMemory(join(dir, 'absent.json')).read()).toBeUndefined();
  });
});
