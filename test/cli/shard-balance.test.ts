import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXPECTED_REQUESTS, balanceShards, shardLoads } from '../../src/cli/shard-balance.ts';

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
});
