import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/cli.ts';

describe('CI output (GitHub Actions) of a whole run', () => {
  it('a run with GITHUB_STEP_SUMMARY set appends its summary to that file', async () => {
    const dir = tempDir('step-summary-');
    const file = join(dir, 'summary.md');
    writeFileSync(file, '# earlier step\n');
    const run = await runCli(['--profile', 'quick', '--only', 'AUTH-001', '--seed', '3', '--report-dir', join(dir, 'reports')], {
      GITHUB_STEP_SUMMARY: file,
      GITHUB_ACTIONS: 'true',
    });
    expect(run.code, run.stdout).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# earlier step\n')).toBe(true);
    expect(text).toContain('## Animal Store conformance: PARTIAL');
    expect(text).toContain('### Untested MUST requirements');
  });
});
