import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EXPECTED_REQUESTS, balanceShards, shardLoads } from '../../src/cli/shard-balance.ts';
import { startReferenceServer } from '../../src/reference/index.ts';
import { readReport, runCli, tempDir } from '../support/cli.ts';

const SUITE_FILES = readdirSync(fileURLToPath(new URL('../../suites/', import.meta.url)))
  .filter((f) => f.endsWith('.test.ts'))
  .sort();

describe('shards are balanced by expected requests', () => {
  it('knows every suite file', () => {
    for (const table of Object.values(EXPECTED_REQUESTS)) expect(Object.keys(table).sort()).toEqual(SUITE_FILES);
  });

  it('gives every file to exactly one shard, the same split whatever order the files come in', () => {
    const forward = balanceShards(SUITE_FILES, 3, 'standard', (f) => f);
    const backward = balanceShards([...SUITE_FILES].reverse(), 3, 'standard', (f) => f);
    expect(backward).toEqual(forward);
    expect(forward.flat().sort()).toEqual(SUITE_FILES);
  });

  it('no shard carries more than the lightest one plus its heaviest file', () => {
    for (const profile of ['quick', 'standard', 'thorough'] as const) {
      for (const count of [2, 3, 4]) {
        const loads = shardLoads(SUITE_FILES, count, profile);
        const heaviest = Math.max(...Object.values(EXPECTED_REQUESTS[profile]));
        expect(Math.max(...loads) - Math.min(...loads), `${profile} ${count}: ${loads.join(', ')}`).toBeLessThanOrEqual(heaviest);
      }
    }
    // Standard in two: within 15% of each other (vitest's split by file hash is not balanced at all).
    const [a = 0, b = 0] = shardLoads(SUITE_FILES, 2, 'standard');
    expect(Math.abs(a - b) / Math.max(a, b)).toBeLessThan(0.15);
  });

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
