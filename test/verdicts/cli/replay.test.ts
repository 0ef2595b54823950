import { describe, expect, it } from 'vitest';
import { readReport, runCli, tempDir } from '../../support/cli.ts';

describe('CLI: --replay <report.json>', () => {
  it('runs only the failing tests of one requirement again: same verdict, the counterexample, at most the requests they took', async () => {
    const first = tempDir('cli-replay-first-');
    const run = await runCli(['--profile', 'standard', '--seed', '3', '--reference-faults', 'status-not-validated', '--report-dir', first]);
    expect(run.code).toBe(1);
    const original = readReport(first);
    const failing = original.requirements.find((r) => r.id === 'STA-006');
    expect(failing?.verdict).toBe('fail');
    const failingIds = new Set(failing?.failures.map((f) => f.testId));
    const spent = original.requirements.flatMap((r) => r.tests).filter((t, i, all) => failingIds.has(t.id) && all.findIndex((u) => u.id === t.id) === i);
    const budget = spent.reduce((sum, t) => sum + t.requests, 0);
    const counterexample = failing?.failures.find((f) => f.property)?.property?.counterexample;
    expect(counterexample).toBeDefined();

    const again = tempDir('cli-replay-again-');
    const replay = await runCli(['--replay', `${first}/conformance.json`, '--only', 'STA-006', '--report-dir', again]);
    expect(replay.code).toBe(1);
    const replayed = readReport(again);
    const result = replayed.requirements.find((r) => r.id === 'STA-006');
    expect(result?.verdict).toBe('fail');
    expect(result?.failures.find((f) => f.property)?.property?.counterexample).toBe(counterexample);
    expect(replayed.traffic.requestCount).toBeLessThanOrEqual(budget);
    expect(replayed.run.seed).toBe(original.run.seed);
    expect(replayed.run.profile).toBe('standard');
  });

  it('refuses a report with no failing test to replay (exit 2)', async () => {
    const first = tempDir('cli-replay-clean-');
    expect((await runCli(['--profile', 'quick', '--seed', '3', '--report-dir', first])).code).toBe(0);
    const result = await runCli(['--replay', `${first}/conformance.json`, '--report-dir', tempDir('cli-replay-none-')]);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toMatch(/holds no failing test to replay/);
  });
});
