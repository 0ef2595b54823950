import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { planMismatch } from '../../src/harness/plan-mismatch.ts';
import { preflight } from '../../src/harness/preflight.ts';
import { KEY, startServer } from '../support/reference-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'plan-mismatch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a --plan off by exactly another plan row', () => {
  it.each([
    [
      'free, a Pro key (300)',
      '300',
      'free',
      undefined,
      /--plan free expects X-RateLimit-Limit 60 \(or 1000\), but the key's first answer says 300: the pro plan's 300 a minute\. .*--plan pro$/,
    ],
    ['business, a Free key (60)', '60', 'business', undefined, /the free plan's 60 a minute.*--plan free$/],
    ['pro, a Business key by its day (100000)', '100000', 'pro', undefined, /the business plan's 100000 a day.*--plan business$/],
    ['custom Enterprise limits, a Pro key', '300', 'enterprise', { perMinute: 5000, perDay: 50000 }, /--plan enterprise:5000:50000 expects .*--plan pro$/],
  ] as const)('%s: a configuration error naming the likely plan', (_title, limit, plan, stated, message) => {
    expect(planMismatch(limit, plan, stated)).toMatchObject({ code: 'ERR_CONFIG', message: expect.stringMatching(message) });
  });

  it.each([
    ['the stated plan (per minute)', '60', 'free'],
    ['the stated plan (per day)', '1000', 'free'],
    ['no row: RATE-008 judges it', '250', 'free'],
    ['two rows (Business a minute, Free a day): not a likely plan', '1000', 'pro'],
    ['not a number: RATE-008 judges it', '60, 60', 'pro'],
    ['absent', undefined, 'pro'],
    ['Enterprise without stated limits', '300', 'enterprise'],
  ] as const)('%s: no configuration error', (_title, limit, plan) => {
    expect(planMismatch(limit, plan, undefined)).toBeUndefined();
  });

  it('the preflight refuses --plan free for a Pro key at start, and passes --plan pro', async () => {
    const server = await startServer({ keys: [{ key: KEY, plan: 'pro' }] });
    onTestFinished(() => server.close());
    const options = { baseUrl: server.url, apiKey: KEY, timeoutMs: 5_000, ledgerPath: join(dir, 'ledger') };
    await expect(preflight({ ...options, plan: { name: 'free' } })).rejects.toMatchObject({
      code: 'ERR_CONFIG',
      message: expect.stringMatching(/--plan pro$/),
    });
    await expect(preflight({ ...options, plan: { name: 'pro' } })).resolves.toBeUndefined();
  });
});
