import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareReports, formatComparison, runCompare } from '../../src/cli/compare.ts';
import { annotations, stepSummary } from '../../src/cli/ci-output.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { ConformanceReport, TestOutcome } from '../../src/report/report-types.ts';
import { OPERATIONS, TINY_CATALOG, failed, passed, runInfo, skipped } from '../support/report-builders.ts';
import { tempDir } from '../support/cli.ts';

function report(tests: TestOutcome[]): ConformanceReport {
  return buildReport({ runInfo: runInfo(), catalog: TINY_CATALOG, tests, harnessErrors: [], strict: false, operations: OPERATIONS });
}

const clean = () => report([passed('MUS-001'), passed('MUS-002'), passed('SHD-001'), passed('MAY-001')]);

describe('compare: what a change made better or worse', () => {
  it('names a newly failing requirement and calls it a regression', () => {
    const after = report([failed('MUS-001', 'conformance'), passed('MUS-002'), passed('SHD-001'), passed('MAY-001')]);
    const comparison = compareReports(clean(), after);
    expect(comparison.newlyFailing.map((c) => c.id)).toEqual(['MUS-001']);
    expect(comparison.newlyFailing[0]?.detail).toContain('expected status 401, got status 200');
    expect(comparison.regressed).toBe(true);
    expect(formatComparison(comparison, 'text')).toMatch(/^REGRESSED: conformant → not-conformant/);
    expect(formatComparison(comparison, 'markdown')).toContain('| MUS-001 | MUST | pass | fail |');
    // The other way round it is a fix, and nothing regressed.
    const back = compareReports(after, clean());
    expect(back.fixed.map((c) => c.id)).toEqual(['MUS-001']);
    expect(back.regressed).toBe(false);
  });

  it('a MUST that is no longer tested is a regression; a SHOULD is only reported', () => {
    const must = compareReports(
      clean(),
      report([skipped('MUS-001', 'not in the quick profile', 'profile'), passed('MUS-002'), passed('SHD-001'), passed('MAY-001')]),
    );
    expect(must.newlyUntested.map((c) => c.id)).toEqual(['MUS-001']);
    expect(must.regressed).toBe(true);
    const should = compareReports(clean(), report([passed('MUS-001'), passed('MUS-002'), skipped('SHD-001', 'read-only', 'read-only'), passed('MAY-001')]));
    expect(should.newlyUntested.map((c) => c.id)).toEqual(['SHD-001']);
    expect(should.regressed).toBe(false);
  });

  it('refuses reports of different interface versions, and exits 1/0/2 from the command line', () => {
    const dir = tempDir('compare-');
    const before = join(dir, 'before.json');
    const after = join(dir, 'after.json');
    const other = join(dir, 'other.json');
    const failing = report([failed('MUS-002', 'conformance'), passed('MUS-001'), passed('SHD-001'), passed('MAY-001')]);
    writeFileSync(before, JSON.stringify(clean()));
    writeFileSync(after, JSON.stringify(failing));
    writeFileSync(other, JSON.stringify({ ...failing, run: { ...failing.run, specSha256: 'f'.repeat(64), specVersion: '2.0.0' } }));
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(runCompare([before, after], log)).toBe(1);
    expect(lines.join('\n')).toContain('MUS-002');
    expect(runCompare([before, before, '--format', 'json'], log)).toBe(0);
    expect(runCompare([before, other], log)).toBe(2);
    expect(lines.at(-1)).toContain('different interface descriptions');
    expect(runCompare([before], log)).toBe(2);
  });
});

describe('CI output (GitHub Actions)', () => {
  it('the step summary holds the verdict, the failing requirement with its reason and curl line, and the replay', () => {
    const failing = report([failed('MUS-001', 'conformance'), passed('MUS-002'), passed('SHD-001'), passed('MAY-001')]);
    const summary = stepSummary(failing);
    expect(summary).toContain('## Animal Store conformance: NOT CONFORMANT');
    expect(summary).toContain('**MUS-001** (MUST)');
    expect(summary).toContain('expected status 401, got status 200');
    expect(summary).toContain(failing.requirements.find((r) => r.id === 'MUS-001')?.failures[0]?.curl ?? 'no curl');
    expect(summary).toContain('Replay:');
    expect(summary).toContain('**Gate: fail** (exit 1): `1 requirement fails: MUS-001`');
    expect(summary).toContain('### Failing, by probable cause (1)');
    // The gate's decision, then one annotation per probable cause.
    const lines = annotations(failing);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('::error title=Gate fail::1 requirement fails: MUS-001');
    expect(lines[1]).toMatch(/^::error title=MUS-001%3A [^:]*::MUS-001 The first MUST\. — expected status 401/);
  });
});

describe('compare: runs that were not alike', () => {
  const withRun = (overrides: Partial<ConformanceReport['run']>): ConformanceReport => {
    const base = clean();
    return { ...base, run: { ...base.run, ...overrides } };
  };

  it('warns when target, profile or plan differ, and stays silent when they do not', () => {
    const before = withRun({ target: { url: 'https://staging.example/v1', embedded: false }, profile: 'standard', plan: 'pro' });
    const after = withRun({ target: { url: 'https://prod.example/v1', embedded: false }, profile: 'thorough', plan: 'free' });
    const comparison = compareReports(before, after);
    expect(comparison.runsDiffer).toEqual(['target https://staging.example/v1 → https://prod.example/v1', 'profile standard → thorough', 'plan pro → free']);
    const text = formatComparison(comparison, 'text').split('\n');
    expect(text[1]).toBe(
      'warning: the runs differ (target https://staging.example/v1 → https://prod.example/v1; profile standard → thorough; plan pro → free): a change may come from that, not from the implementation',
    );
    expect(formatComparison(comparison, 'markdown')).toContain('> warning: the runs differ (target');
    expect(compareReports(before, before).runsDiffer).toEqual([]);
    expect(formatComparison(compareReports(before, before), 'text')).not.toContain('warning');
  });
});
