import { describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../../src/report/report-types.ts';
import { readReport, runCli, tempDir } from '../../support/cli.ts';

const ran = (report: ConformanceReport): number =>
  new Set(report.requirements.flatMap((r) => r.tests.filter((t) => t.state === 'passed' || t.state === 'failed').map((t) => t.id))).size;

describe('CLI: --fail-fast', () => {
  it('stops at the first failure that decides the verdict: NOT CONFORMANT, exit 1, fewer tests run, the cause named', async () => {
    const args = ['--profile', 'standard', '--seed', '7', '--reference-faults', 'limit-off-by-one'];
    const fullDir = tempDir('cli-fail-fast-full-');
    const fastDir = tempDir('cli-fail-fast-');
    const [full, fast] = await Promise.all([runCli([...args, '--report-dir', fullDir]), runCli([...args, '--fail-fast', '--report-dir', fastDir])]);
    expect(full.code).toBe(1);
    expect(fast.code).toBe(1);
    const fullReport = readReport(fullDir);
    const fastReport = readReport(fastDir);
    expect(fastReport.verdict.overall).toBe('not-conformant');
    expect(fastReport.harnessErrors.map((problem) => problem.code)).toEqual(['ERR_FAIL_FAST']);
    expect(fullReport.harnessErrors).toEqual([]);
    const failedFast = fastReport.requirements.filter((r) => r.verdict === 'fail').map((r) => r.id);
    const failedFull = fullReport.requirements.filter((r) => r.verdict === 'fail').map((r) => r.id);
    expect(failedFast.length).toBeGreaterThanOrEqual(1);
    for (const id of failedFast) expect(failedFull).toContain(id);
    expect(ran(fastReport)).toBeLessThan(ran(fullReport));
    expect(fast.stdout + fast.stderr).toMatch(/--fail-fast: [A-Z]+-\d+ failed; stopping the run/);
    expect(fast.stdout).toContain('Replay: npx animal-store-conformance --profile standard --seed=7 --fail-fast');
  });

  it('changes nothing on a conformant target', async () => {
    const dir = tempDir('cli-fail-fast-ok-');
    const result = await runCli(['--profile', 'quick', '--seed', '7', '--fail-fast', '--report-dir', dir]);
    expect(result.code).toBe(0);
    expect(readReport(dir).harnessErrors).toEqual([]);
  });

  it('cannot be combined with --certify (exit 2)', async () => {
    const dir = tempDir('cli-fail-fast-certify-');
    const result = await runCli(['--profile', 'thorough', '--fail-fast', '--certify', tempDir('cli-bundle-'), '--report-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toMatch(/--certify cannot be combined with --fail-fast/);
  });
});
