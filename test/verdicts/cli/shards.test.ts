import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShardRecord } from '../../../src/report/index.ts';
import { readReport, runCli, tempDir, verdictsById } from '../../support/cli.ts';

const SELECTION = ['--only', 'auth,errors,deprecation', '--profile', 'standard'];
const SEED = ['--seed', '4242'];
// Several whole CLI runs: generous, so a slow machine is never a failure.
const TIMEOUT_MS = 600_000;

function collectBlobs(dirs: readonly string[]): string {
  const blobs = tempDir('shards-blobs-');
  mkdirSync(blobs, { recursive: true });
  for (const dir of dirs) {
    for (const name of readdirSync(join(dir, 'blob'))) copyFileSync(join(dir, 'blob', name), join(blobs, name));
  }
  return blobs;
}

describe('sharded runs', () => {
  it(
    'two shards merged give the verdicts of one unsharded run, with run info from the shards; shards that are not one run are refused',
    async () => {
      const whole = tempDir('shards-whole-');
      const first = tempDir('shards-1-');
      const second = tempDir('shards-2-');
      const otherSeed = tempDir('shards-2-other-seed-');
      const runs = await Promise.all([
        runCli([...SELECTION, ...SEED, '--report-dir', whole]),
        runCli([...SELECTION, ...SEED, '--shard', '1/2', '--report-dir', first]),
        runCli([...SELECTION, ...SEED, '--shard', '2/2', '--report-dir', second]),
        runCli([...SELECTION, '--seed', '99', '--shard', '2/2', '--report-dir', otherSeed]),
      ]);
      for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);

      // The blob and its record travel together.
      const blobs = collectBlobs([first, second]);
      expect(readdirSync(blobs).sort()).toEqual(['blob-1-2.json', 'blob-1-2.run.json', 'blob-2-2.json', 'blob-2-2.run.json']);
      // The merge command names none of the run's options: they come from the shards.
      const merged = tempDir('shards-merged-');
      const merge = await runCli(['--merge-reports', blobs, '--report-dir', merged]);
      expect(merge.code, merge.stdout + merge.stderr).toBe(0);
      const report = readReport(merged);
      expect(verdictsById(report)).toEqual(verdictsById(readReport(whole)));
      expect(report.run).toMatchObject({ seed: 4242, profile: 'standard', only: ['auth', 'errors', 'deprecation'] });
      expect(report.run.shard).toBeUndefined();
      expect(report.run.command).toContain('--seed=4242');
      expect(report.run.command).not.toContain('--shard');
      // Each shard alone saw only part of the suite: the merge is what makes it whole.
      expect(verdictsById(readReport(first))).not.toEqual(verdictsById(readReport(whole)));

      const refused = async (dirs: string[], edit?: (dir: string) => void) => {
        const dir = collectBlobs(dirs);
        edit?.(dir);
        const out = tempDir('shards-refused-');
        const run = await runCli(['--merge-reports', dir, '--report-dir', out]);
        expect(run.code, run.stdout + run.stderr).toBe(2);
        expect(readReport(out).verdict.overall).toBe('incomplete');
        expect(readReport(out).harnessErrors[0]?.code).toBe('ERR_SHARD_MISMATCH');
        return run.stdout + run.stderr;
      };
      expect(await refused([first, otherSeed])).toMatch(/differ in seed: 4242 .* vs 99/);
      expect(await refused([first])).toContain('shard 2/2 missing');
      expect(await refused([first, second], (dir) => rmSync(join(dir, 'blob-2-2.run.json')))).toContain('blob-2-2.json has no blob-2-2.run.json');
      expect(
        await refused([first, second], (dir) => {
          const path = join(dir, 'blob-2-2.run.json');
          const record = JSON.parse(readFileSync(path, 'utf8')) as ShardRecord;
          record.run.target = { url: 'https://elsewhere.example/v1', embedded: false };
          writeFileSync(path, JSON.stringify(record));
        }),
      ).toContain('differ in target');
    },
    TIMEOUT_MS,
  );

  it(
    'shards judge a baseline as their merge does: a failure split across shards stays the listed one; the merge applies --baseline or refuses another',
    async () => {
      // error-status-mismatch fails ERR-002 in its own test (errors) and in a check on every error response (every file).
      const faulty = ['--reference-faults', 'error-status-mismatch', '--only', 'auth,errors,status-codes', '--profile', 'standard', '--seed', '7'];
      const dir = tempDir('shards-baseline-');
      const baseline = join(dir, 'baseline.yaml');
      const whole = await runCli([...faulty, '--baseline', baseline, '--update-baseline', '--report-dir', join(dir, 'whole')]);
      // Writing the baseline exits 0; the run's own verdict (in the report) still fails.
      expect(whole.code, whole.stdout + whole.stderr).toBe(0);
      expect(readReport(join(dir, 'whole')).verdict.exitCode).toBe(1);
      const marks = (report: ReturnType<typeof readReport>) =>
        [...new Set(report.requirements.find((r) => r.id === 'ERR-002')?.failures.map((f) => f.check ?? f.testName))].sort();
      const wholeMarks = marks(readReport(join(dir, 'whole')));

      const shardDirs = (kind: string) => [1, 2, 3].map((i) => join(dir, `${kind}-${i}`));
      const judged = shardDirs('judged');
      const plain = shardDirs('plain');
      const shardRuns = await Promise.all([
        ...judged.map((out, i) => runCli([...faulty, '--baseline', baseline, '--shard', `${i + 1}/3`, '--report-dir', out])),
        ...plain.map((out, i) => runCli([...faulty, '--shard', `${i + 1}/3`, '--report-dir', out])),
      ]);
      // Some shard saw only part of the failure: the case where a fingerprint of the whole would disagree.
      expect(judged.some((out) => marks(readReport(out)).length > 0 && marks(readReport(out)).join() !== wholeMarks.join())).toBe(true);
      // Every shard judged with the baseline accepts the known failure, as the merge does.
      shardRuns.slice(0, 3).forEach((run, i) => expect({ shard: i + 1, code: run.code }, run.stdout + run.stderr).toEqual({ shard: i + 1, code: 0 }));

      const merge = async (shards: string[], extra: string[] = []) => {
        const out = join(dir, `merged-${Math.random().toString(16).slice(2)}`);
        const run = await runCli(['--merge-reports', collectBlobs(shards), ...extra, '--report-dir', out]);
        return { run, report: readReport(out) };
      };
      const verdictOf = (report: ReturnType<typeof readReport>) => report.requirements.find((r) => r.id === 'ERR-002')?.verdict;
      const merged = await merge(judged);
      expect(merged.run.code, merged.run.stdout + merged.run.stderr).toBe(0);
      expect(verdictOf(merged.report)).toBe('deviation');

      // A different baseline given to the merge of shards judged with one is refused, never dropped.
      const other = join(dir, 'other.yaml');
      writeFileSync(other, 'deviations: []\n');
      const refused = await merge(judged, ['--baseline', other]);
      expect(refused.run.code).toBe(2);
      expect(refused.report.harnessErrors[0]?.code).toBe('ERR_SHARD_MISMATCH');
      expect(refused.run.stderr).toContain('--baseline differs from the baseline the shards were judged with');

      // Shards run without a baseline: the merge given one applies it.
      const unjudged = await merge(plain);
      expect(unjudged.run.code).toBe(1);
      const applied = await merge(plain, ['--baseline', baseline]);
      expect(applied.run.code, applied.run.stdout + applied.run.stderr).toBe(0);
      expect(verdictOf(applied.report)).toBe('deviation');
      expect(applied.report.deviations).toMatchObject([{ id: 'ERR-002', status: 'applied', source: 'baseline' }]);

      // One shard cannot update the baseline: it would drop what only the other shards saw.
      const update = await runCli([...faulty, '--baseline', baseline, '--update-baseline', '--shard', '1/3', '--report-dir', join(dir, 'update')]);
      expect(update.code).toBe(2);
      expect(update.stderr).toContain('--update-baseline cannot be given to one shard');
    },
    TIMEOUT_MS,
  );

  it(
    'shards authenticated by the merge: MACed with its key and nonce, merged; an edited nonce, a stripped MAC or another key is refused',
    async () => {
      const key = { ASC_SHARD_KEY: 'shard-key-of-this-test-0123456789abcdef' };
      const lean = ['--only', 'auth', '--profile', 'quick', '--seed', '5', '--run-nonce', 'run-1'];
      const dirs = [tempDir('shards-auth-1-'), tempDir('shards-auth-2-')];
      const runs = await Promise.all(dirs.map((dir, i) => runCli([...lean, '--shard', `${i + 1}/2`, '--report-dir', dir], key)));
      for (const run of runs) expect(run.code, run.stdout + run.stderr).toBe(0);
      const merge = async (from: string, env: Record<string, string>, nonce = 'run-1') => {
        const out = tempDir('shards-auth-merged-');
        const run = await runCli(['--merge-reports', from, '--run-nonce', nonce, '--report-dir', out], env);
        return { run, said: run.stdout + run.stderr, report: readReport(out) };
      };
      const merged = await merge(collectBlobs(dirs), key);
      expect(merged.run.code, merged.said).toBe(0);
      expect(merged.report.run.merged).toEqual({ shards: 2, authenticated: true });
      expect(merged.said).toContain('each shard authenticated by the shard key');
      // The secret is written nowhere.
      for (const dir of dirs) expect(readFileSync(join(dir, 'conformance.json'), 'utf8')).not.toContain(key.ASC_SHARD_KEY);

      const refused = async (edit: (record: ShardRecord) => void, env = key) => {
        const from = collectBlobs(dirs);
        let nonce = 'run-1';
        for (const name of ['blob-1-2.run.json', 'blob-2-2.run.json']) {
          const path = join(from, name);
          const record = JSON.parse(readFileSync(path, 'utf8')) as ShardRecord;
          edit(record);
          nonce = record.run.runNonce ?? nonce;
          writeFileSync(path, JSON.stringify(record, null, 2));
        }
        const result = await merge(from, env, nonce);
        expect(result.run.code, result.said).toBe(2);
        expect(result.report.harnessErrors[0]?.code).toBe('ERR_SHARD_MISMATCH');
        return result.said;
      };
      // Shards of run-1 passed off as another run's (their unsigned-looking nonce edited): the MACs were made for run-1.
      expect(await refused((r) => (r.run.runNonce = 'run-2'))).toContain(
        'blob-2-2.json: its MAC does not verify with the shard key (an edited record, another key or another run)',
      );
      expect(await refused((r) => delete r.auth)).toContain('blob-2-2.json: it carries no MAC');
      expect(await refused(() => undefined, { ASC_SHARD_KEY: 'another-shard-key-0123456789abcdef' })).toContain('its MAC does not verify with the shard key');
      // The merge's nonce is not the shards': refused without reading them further.
      const other = await merge(collectBlobs(dirs), key, 'run-2');
      expect(other.run.code).toBe(2);
      expect(other.said).toContain('its run nonce is not the one this merge issued');
    },
    TIMEOUT_MS,
  );

  it('--shard without --seed is refused at once: the shards could never be merged', async () => {
    const out = tempDir('shards-noseed-');
    const run = await runCli(['--shard', '1/2', '--report-dir', out]);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toContain('--shard needs --seed');
  });
});
