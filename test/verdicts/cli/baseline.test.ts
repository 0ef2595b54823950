import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExpectedDeviations } from '../../../src/report/deviations.ts';
import { readReport, runCli, tempDir } from '../../support/cli.ts';

const FAULTY = ['--reference-faults', 'error-status-mismatch', '--only', 'ERR-002', '--profile', 'standard', '--seed', '31'];

/** A known failure in the baseline does not fail the gate until it expires; a new one does. */
describe('--baseline: known failures with an expiry', () => {
  it('round-trips: --update-baseline records the failure, the gate then passes, an expired entry fails it again', async () => {
    const dir = tempDir('baseline-');
    const baseline = join(dir, 'baseline.yaml');
    // 1. A faulty run writes the baseline from its failures.
    // Writing the baseline was the run's purpose: it exits 0 and says why, and a new entry expires (90 days on).
    const first = await runCli([...FAULTY, '--baseline', baseline, '--update-baseline', '--report-dir', join(dir, 'r1')]);
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toMatch(/Gate: pass \(exit 0\): --update-baseline wrote the baseline \(1 known failure written to /);
    expect(readReport(join(dir, 'r1')).verdict.exitCode).toBe(1);
    const written = parseExpectedDeviations(readFileSync(baseline, 'utf8'));
    expect(written.map((d) => d.id)).toEqual(['ERR-002']);
    const ranOn = readReport(join(dir, 'r1')).run.startedAt.slice(0, 10);
    expect(written[0]?.expires).toBe(new Date(Date.parse(`${ranOn}T00:00:00Z`) + 90 * 86_400_000).toISOString().slice(0, 10));
    // One hash per mark (the failing test, the check that fired), so shards judge it as their merge does.
    expect(written[0]?.fingerprint).toMatch(/^[0-9a-f]{16}( [0-9a-f]{16})+$/);

    // 2. With the entry (given a reason and a future expiry, kept by the next update), the gate passes.
    writeFileSync(
      baseline,
      `deviations:\n  - id: ERR-002\n    reason: error bodies are fixed in release 2\n    expires: 2999-01-01\n    fingerprint: ${written[0]?.fingerprint}\n`,
    );
    const second = await runCli([...FAULTY, '--baseline', baseline, '--update-baseline', '--report-dir', join(dir, 'r2')]);
    expect(second.code, second.stdout).toBe(0);
    const report = readReport(join(dir, 'r2'));
    expect(report.requirements.find((r) => r.id === 'ERR-002')?.verdict).toBe('deviation');
    expect(report.deviations[0]?.status).toBe('applied');
    const kept = parseExpectedDeviations(readFileSync(baseline, 'utf8'))[0];
    expect(kept).toMatchObject({ id: 'ERR-002', reason: 'error bodies are fixed in release 2', expires: '2999-01-01' });

    // 3. Expired: the failure counts again, and the run says why.
    writeFileSync(baseline, 'deviations:\n  - id: ERR-002\n    reason: was to be fixed\n    expires: 2001-01-01\n');
    const third = await runCli([...FAULTY, '--baseline', baseline, '--report-dir', join(dir, 'r3')]);
    expect(third.code, third.stdout).toBe(1);
    expect(third.stdout).toMatch(/ERR-002 was accepted until 2001-01-01: the entry has expired/);

    // 4. A different failure of the same requirement is new: it counts.
    writeFileSync(baseline, 'deviations:\n  - id: ERR-002\n    reason: known\n    fingerprint: 0123456789abcdef\n');
    const fourth = await runCli([...FAULTY, '--baseline', baseline, '--report-dir', join(dir, 'r4')]);
    expect(fourth.code, fourth.stdout).toBe(1);
    expect(fourth.stdout).toContain('now fails differently');

    // 5. Against the correct reference the entry is reported as fixed.
    const fixed = await runCli(['--only', 'ERR-002', '--profile', 'standard', '--seed', '31', '--baseline', baseline, '--report-dir', join(dir, 'r5')]);
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(fixed.stdout).toMatch(/ERR-002, but the requirement passes: remove it/);
  }, 180_000);
});
