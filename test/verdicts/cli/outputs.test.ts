import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/cli.ts';

describe('per-format outputs beside the report directory', () => {
  it('--html, --json, --junit copy each report; --summary-md writes the Markdown summary', async () => {
    const dir = tempDir('cli-outputs-');
    const at = (name: string) => join(dir, 'elsewhere', name);
    const result = await runCli([
      '--profile',
      'quick',
      '--only',
      'VER-001',
      '--report-dir',
      join(dir, 'reports'),
      '--html',
      at('page.html'),
      '--json',
      at('result.json'),
      '--junit',
      at('tests.xml'),
      '--summary-md',
      at('summary.md'),
    ]);
    expect(result.code, result.stderr).toBe(0);
    for (const [copy, original] of [
      ['page.html', 'conformance.html'],
      ['result.json', 'conformance.json'],
      ['tests.xml', 'junit.xml'],
    ]) {
      expect(readFileSync(at(copy as string), 'utf8')).toBe(readFileSync(join(dir, 'reports', original as string), 'utf8'));
    }
    const summary = readFileSync(at('summary.md'), 'utf8');
    expect(summary).toMatch(/PARTIAL/);
    expect(summary).toContain('VER-001');
    expect(result.stdout).toContain('summary.md');
  });
});
