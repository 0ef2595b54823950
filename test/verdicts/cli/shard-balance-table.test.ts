import { describe, expect, it, onTestFinished } from 'vitest';
import { EXPECTED_REQUESTS } from '../../../src/cli/shard-balance.ts';
import { startReferenceServer } from '../../../src/reference/index.ts';
import { readReport, runCli, tempDir } from '../../support/cli.ts';

describe('the expected requests per suite file', () => {
  it('the table matches what a standard run sends today (a remote run of the reference)', async () => {
    const server = await startReferenceServer({
      rateWindowMs: 2_000,
      keys: [
        { key: 'balance-main-key-0123456789abcdef', plan: 'enterprise', perMinute: 20_000, perDay: 10_000_000 },
        { key: 'balance-exhaust-key-0123456789abc', plan: 'free' },
      ],
      log: () => undefined,
    });
    onTestFinished(() => server.close());
    const dir = tempDir('shard-balance-');
    const run = await runCli(['--target', server.url, '--profile', 'standard', '--seed', '1', '--report-dir', dir], {
      API_KEY: 'balance-main-key-0123456789abcdef',
      EXHAUST_API_KEY: 'balance-exhaust-key-0123456789abc',
      ASC_RATE_WINDOW: '2',
    });
    expect(run.code, run.stdout).toBe(0);
    const sent: Record<string, number> = {};
    const seen = new Set<string>();
    for (const requirement of readReport(dir).requirements) {
      for (const test of requirement.tests) {
        const key = `${test.file}|${test.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const file = test.file.replace(/.*\//, '');
        sent[file] = (sent[file] ?? 0) + test.requests;
      }
    }
    // Loose on purpose: the table only has to rank and weigh files, not count requests exactly.
    const drifted = Object.entries(EXPECTED_REQUESTS.standard)
      .map(([file, expected]) => ({ file, expected, actual: sent[file] ?? 0 }))
      .filter(({ expected, actual }) => actual < Math.floor(expected / 2) - 5 || actual > expected * 2 + 5);
    expect(drifted, `update EXPECTED_REQUESTS.standard; this run sent ${JSON.stringify(sent)}`).toEqual([]);
  }, 300_000);
});
