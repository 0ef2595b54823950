import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.ts';
import { reportDirOf } from '../../src/cli/args.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { reportDirWithoutConfig, resolveReportDir } from '../../src/config/report-dir.ts';

describe('the report directory, read in one place', () => {
  it('is the given directory under cwd, or reports/ when none or an empty one is given', () => {
    expect(resolveReportDir(undefined, '/work')).toBe('/work/reports');
    expect(resolveReportDir('', '/work')).toBe('/work/reports');
    expect(resolveReportDir('out', '/work')).toBe('/work/out');
    expect(resolveReportDir('/elsewhere', '/work')).toBe('/elsewhere');
  });

  it('is the same whether the configuration loaded or was refused', () => {
    const cwd = tempDir('asc-report-dir-');
    const cases: Array<{ flag?: string; env: Record<string, string>; expected: string }> = [
      { env: {}, expected: 'reports' },
      { env: { ASC_REPORT_DIR: '' }, expected: 'reports' },
      { env: { ASC_REPORT_DIR: 'from-env' }, expected: 'from-env' },
      { flag: 'from-flag', env: { ASC_REPORT_DIR: 'from-env' }, expected: 'from-flag' },
    ];
    for (const { flag, env, expected } of cases) {
      // loadConfig reads relative paths from its cwd; without a configuration, from the process's.
      expect(loadConfig({ flags: flag === undefined ? {} : { reportDir: flag }, env, cwd }).reportDir).toBe(resolve(cwd, expected));
      expect(reportDirWithoutConfig(flag, env)).toBe(resolve(expected));
      const argv = flag === undefined ? ['--bogus'] : ['--bogus', `--report-dir=${flag}`];
      expect(reportDirOf(argv, env)).toBe(resolve(expected));
    }
  });

  it('takes the last --report-dir of raw arguments that do not parse', () => {
    expect(reportDirOf(['--report-dir', '/a', '--nope', '--report-dir=/b'], {})).toBe('/b');
    expect(reportDirOf(['--report-dir', '/a', '--nope'], { ASC_REPORT_DIR: '/e' })).toBe('/a');
    expect(reportDirOf(['--nope'], { ASC_REPORT_DIR: '/e' })).toBe('/e');
  });
});
