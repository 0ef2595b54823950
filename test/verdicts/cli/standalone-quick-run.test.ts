import { describe, expect, it } from 'vitest';
import { PROFILE_RULES } from '../../../src/config/profiles.ts';
import { readReport, runCli, startStandalone, tempDir } from '../../support/cli.ts';

describe('CLI: a quick run of the standalone reference', () => {
  it('the standalone reference with the right key: exit 0 (nothing failed; quick is partial by design) within the quick budget', async () => {
    const { url } = await startStandalone('right-key-0123456789:enterprise:100000:1000000');
    const dir = tempDir('cli-right-key-');
    const result = await runCli(['--target', url, '--api-key', 'right-key-0123456789', '--profile', 'quick', '--report-dir', dir]);
    const report = readReport(dir) as ReturnType<typeof readReport> & { traffic: { requestCount: number } };
    expect(report.verdict.why).toBeTruthy();
    expect(result.code, result.stdout).toBe(0);
    expect(report.requirements.filter((r) => r.verdict === 'fail')).toEqual([]);
    expect(report.traffic.requestCount).toBeLessThanOrEqual(PROFILE_RULES.quick.budget ?? 0);
  });
});
