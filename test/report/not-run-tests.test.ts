import { describe, expect, test } from 'vitest';
import { buildReport } from '../../src/report/build-report.ts';
import type { TestOutcome } from '../../src/report/report-types.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import { renderJunit } from '../../src/report/render-junit.ts';
import { reportContradictions } from '../../src/report/report-consistency.ts';
import { OPERATIONS, TINY_CATALOG, outcome, passed, runInfo } from '../support/report-builders.ts';

/** A test the run never reached: vitest reported it skipped (or pending), the harness gave it no code. */
function notRun(id: string, note = 'The test run was aborted by the user.'): TestOutcome {
  return { ...outcome('skipped', undefined, { name: `${id} a test the run never reached` }), notRun: true, skipNote: note };
}

describe('a requirement with a test not run is never a pass, in JSON, JUnit and HTML alike', () => {
  const report = buildReport({
    runInfo: runInfo(),
    catalog: TINY_CATALOG,
    // MUS-001: one test passed, its second never ran. MUS-002: its only test never ran, whatever its note says.
    tests: [passed('MUS-001'), notRun('MUS-001'), notRun('MUS-002', 'precondition failed: this text must not decide anything')],
    harnessErrors: [{ code: 'ERR_ABORTED', message: 'the run was interrupted before every test had run' }],
    strict: false,
    operations: OPERATIONS,
  });
  const mus1 = report.requirements.find((r) => r.id === 'MUS-001');
  const mus2 = report.requirements.find((r) => r.id === 'MUS-002');

  test('JSON: partial and skipped, coded run-problem by the state, with the test marked notRun', () => {
    expect({ verdict: mus1?.verdict, code: mus1?.untestedCode }).toEqual({ verdict: 'partial', code: 'run-problem' });
    expect({ verdict: mus2?.verdict, code: mus2?.untestedCode }).toEqual({ verdict: 'skipped', code: 'run-problem' });
    expect(mus1?.tests.map((t) => t.notRun ?? false)).toEqual([false, true]);
    expect(report.verdict.overall).toBe('incomplete');
    expect(reportContradictions(JSON.parse(JSON.stringify(report)))).toEqual([]);
  });

  test('JUnit: no passing test case for either', () => {
    const junit = renderJunit(report);
    for (const id of ['MUS-001', 'MUS-002']) {
      const start = junit.indexOf(`name="${id} `);
      const testcase = junit.slice(start, junit.indexOf('</testcase>', start));
      expect(testcase, id).toMatch(/<skipped message="(partly tested|untested): /);
    }
  });

  test('HTML: shown as partial and skipped, never as passing', () => {
    const html = renderHtml(report);
    expect(html).toContain('data-verdict="partial" data-id="MUS-001"');
    expect(html).toContain('data-verdict="skipped" data-id="MUS-002"');
    expect(html).not.toContain('data-verdict="pass" data-id="MUS-001"');
  });

  test('the schema refuses a pass made of a passed test and a test not run', () => {
    const edited = JSON.parse(JSON.stringify(report)) as typeof report;
    const r = edited.requirements.find((x) => x.id === 'MUS-001');
    if (!r) throw new Error('MUS-001 missing');
    Object.assign(r, { verdict: 'pass' });
    expect(reportContradictions(edited).join('\n')).toMatch(/requirements\/0\/tests\/1/);
  });
});
