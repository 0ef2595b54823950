import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, runCli, tempDir, verdictsById } from './cli-helpers.ts';

const SELECTION = ['--only', 'auth,errors,deprecation', '--seed', '4242'];
// Four whole CLI runs: generous, so a slow machine is never a failure.
const TIMEOUT_MS = 600_000;

describe('sharded runs', () => {
  it('two shards merged with --merge-reports give the same verdicts as one unsharded run', async () => {
    const whole = tempDir('shards-whole-');
    const first = tempDir('shards-1-');
    const second = tempDir('shards-2-');
    const blobs = tempDir('shards-blobs-');
    const merged = tempDir('shards-merged-');
    const runs = await Promise.all([
      runCli([...SELECTION, '--report-dir', whole]),
      runCli([...SELECTION, '--shard', '1/2', '--report-dir', first]),
      runCli([...SELECTION, '--shard', '2/2', '--report-dir', second]),
    ]);
    for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);

    mkdirSync(blobs, { recursive: true });
    for (const dir of [first, second]) {
      for (const name of readdirSync(join(dir, 'blob'))) copyFileSync(join(dir, 'blob', name), join(blobs, name));
    }
    expect(readdirSync(blobs)).toHaveLength(2);
    const merge = await runCli([...SELECTION, '--merge-reports', blobs, '--report-dir', merged]);
    expect(merge.code, merge.stdout + merge.stderr).toBe(0);

    const expected = verdictsById(readReport(whole));
    expect(verdictsById(readReport(merged))).toEqual(expected);
    // Each shard alone saw only part of the suite: the merge is what makes it whole.
    expect(verdictsById(readReport(first))).not.toEqual(expected);
  }, TIMEOUT_MS);
});
