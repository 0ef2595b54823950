import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createClient, createLedgerBudget, createMemoryBudget } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { fakeClock, rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'test-key-0004';
const WORKER = fileURLToPath(new URL('./fixtures/ledger-worker.ts', import.meta.url));

function ledgerPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'requests.ledger');
}

describe('request budget', () => {
  it('is shared by two clients through one ledger and ends with ERR_BUDGET_EXHAUSTED', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, '[]'));
    const path = ledgerPath();
    const a = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, budget: createLedgerBudget(path, 3) });
    const b = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, budget: createLedgerBudget(path, 3) });
    await a.listPets();
    await b.listPets();
    await a.listPets();
    await expect(b.listPets()).rejects.toMatchObject({ name: 'HarnessError', code: 'ERR_BUDGET_EXHAUSTED' });
    await expect(a.listPets()).rejects.toMatchObject({ code: 'ERR_BUDGET_EXHAUSTED' });
    expect(server.requests).toHaveLength(3);
    expect(createLedgerBudget(path, 3).used).toBe(3);
    expect(a.requestCount + b.requestCount).toBe(3);
  });

  it('counts retries against the budget', async () => {
    const clock = fakeClock();
    let calls = 0;
    const server = await startServer((_req, res) => {
      calls += 1;
      if (calls === 1) sendJson(res, 429, '{}', { ...rateHeaders(clock.now(), 0), 'Retry-After': '1' });
      else sendJson(res, 200, '[]', rateHeaders(clock.now()));
    });
    const budget = createMemoryBudget(1);
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, clock, budget });
    await expect(client.listPets()).rejects.toMatchObject({ code: 'ERR_BUDGET_EXHAUSTED' });
    expect(budget.used).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('still counts when unbounded', () => {
    const path = ledgerPath();
    const budget = createLedgerBudget(path, undefined);
    for (let i = 0; i < 5; i += 1) budget.take();
    expect(budget.used).toBe(5);
    expect(budget.limit).toBeUndefined();
    expect(statSync(path).size).toBe(5);
  });

  it('is never overspent by worker processes racing for it', async () => {
    const path = ledgerPath();
    const run = promisify(execFile);
    const workers = [0, 1, 2, 3].map(() =>
      run(process.execPath, ['--import', 'tsx', WORKER, path, '100', '60'], { cwd: fileURLToPath(new URL('../..', import.meta.url)) }),
    );
    const granted = (await Promise.all(workers)).map((r) => Number(r.stdout));
    const total = granted.reduce((sum, n) => sum + n, 0);
    expect(total).toBeLessThanOrEqual(100);
    // Racing claims can both be refused at the edge, so a few may go unused, never more than the workers.
    expect(total).toBeGreaterThanOrEqual(96);
    expect(createLedgerBudget(path, 100).used).toBe(100);
  });
});
