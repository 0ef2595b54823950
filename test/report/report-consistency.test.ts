import { describe, expect, test } from 'vitest';
import { buildReport } from '../../src/report/build-report.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { reportContradictions } from '../../src/report/report-consistency.ts';
import { renderJson } from '../../src/report/render-json.ts';
import { OPERATIONS, TINY_CATALOG, failed, passed, runInfo, skipped } from '../support/report-builders.ts';
import { sampleReport } from '../support/sample-report.ts';

/** conformance.json as a reader gets it: parsed JSON, nothing of ours attached. */
const asRead = (report: ConformanceReport): ConformanceReport => JSON.parse(renderJson(report)) as ConformanceReport;

function conformant(): ConformanceReport {
  const report = buildReport({
    runInfo: runInfo(),
    catalog: TINY_CATALOG,
    tests: [passed('MUS-001'), passed('MUS-002'), passed('SHD-001'), passed('MAY-001')],
    harnessErrors: [],
    strict: false,
    operations: OPERATIONS,
  });
  expect(report.verdict.overall).toBe('conformant');
  return asRead(report);
}

const requirement = (report: ConformanceReport, id: string) => report.requirements.find((r) => r.id === id) as ConformanceReport['requirements'][number];

describe('reportContradictions: a report that contradicts itself is named, one sentence per contradiction', () => {
  test.each([
    ['a conformant run', () => conformant()],
    ['a run with failures, findings, a deviation and skips', () => asRead(sampleReport({ exchangesPerTest: 2 }).report)],
    ['an incomplete run', () => asRead(sampleReport({ exchangesPerTest: 1, harnessErrors: true }).report)],
    [
      'a partial run that had to be complete',
      () =>
        asRead(
          buildReport({
            runInfo: runInfo({ requireComplete: true }),
            catalog: TINY_CATALOG,
            tests: [passed('MUS-001'), skipped('MUS-002', 'read-only mode', 'read-only')],
            harnessErrors: [],
            strict: false,
            operations: OPERATIONS,
          }),
        ),
    ],
    [
      'a run in which nothing ran',
      () => asRead(buildReport({ runInfo: runInfo(), catalog: TINY_CATALOG, tests: [], harnessErrors: [], strict: true, operations: OPERATIONS })),
    ],
    [
      'a failing run under --strict',
      () =>
        asRead(
          buildReport({
            runInfo: runInfo(),
            catalog: TINY_CATALOG,
            tests: [passed('MUS-001'), failed('SHD-001', 'conformance')],
            harnessErrors: [],
            strict: true,
            operations: OPERATIONS,
          }),
        ),
    ],
  ])('what buildReport makes holds together: %s', (_name, make) => {
    expect(reportContradictions(make())).toEqual([]);
  });

  const edits: ReadonlyArray<[string, (report: ConformanceReport) => void, RegExp]> = [
    ['a conformant run with exit 2', (r) => void (r.verdict.exitCode = 2 as 0), /exitCode|exits 0, not 2/],
    [
      'a pass with no test run',
      (r) => {
        requirement(r, 'MUS-002').tests = [];
      },
      /requirements\/1\/tests.*minItems|must NOT have fewer than 1/,
    ],
    [
      'a pass with a test that did not run',
      (r) => {
        const mus = requirement(r, 'MUS-002');
        mus.tests.push({ ...(mus.tests[0] as ConformanceReport['requirements'][number]['tests'][number]), id: 'other', state: 'skipped', notRun: true });
      },
      /requirements\/1\/tests\/1/,
    ],
    [
      'an untested MUST in a conformant run',
      (r) => {
        const mus = requirement(r, 'MUS-002');
        Object.assign(mus, { verdict: 'skipped', reason: 'not run', untestedCode: 'run-problem' });
        r.counts.MUST.pass -= 1;
        r.counts.MUST.skipped += 1;
      },
      /must NOT be valid|should NOT be valid|\/requirements/,
    ],
    ['a conformant run with a harness error', (r) => void r.harnessErrors.push({ code: 'ERR_ABORTED', message: 'interrupted' }), /harnessErrors/],
    [
      'a failing MUST in a run called conformant',
      (r) => {
        Object.assign(requirement(r, 'MUS-001'), {
          verdict: 'fail',
          failures: sampleReport({ exchangesPerTest: 1 })
            .report.requirements.flatMap((x) => x.failures)
            .slice(0, 1),
        });
        r.counts.MUST.pass -= 1;
        r.counts.MUST.fail += 1;
      },
      /verdict\/overall|not-conformant/,
    ],
    ['counts that are not those of the requirements', (r) => void (r.counts.MUST.pass += 1), /counts: 3 MUST pass, but 2/],
    ['a scope that claims more MUSTs tested than listed', (r) => void (r.verdict.scope.mustTested += 1), /scope: 3 MUSTs tested, but 2/],
    [
      'an incomplete run with exit 0',
      (r) => {
        r.verdict.overall = 'incomplete';
        r.harnessErrors.push({ code: 'ERR_ABORTED', message: 'interrupted' });
      },
      /exitCode|const/,
    ],
    [
      'a partial run that exits 0 although it had to be complete',
      (r) => {
        r.run.requireComplete = true;
        const mus = requirement(r, 'MUS-002');
        Object.assign(mus, { verdict: 'skipped', reason: 'read-only', untestedCode: 'read-only' });
        r.counts.MUST.pass -= 1;
        r.counts.MUST.skipped += 1;
        r.verdict.overall = 'partial';
        r.verdict.scope.mustTested -= 1;
        r.verdict.scope.untested.push({ id: 'MUS-002', level: 'MUST', code: 'read-only', reason: 'read-only', cover: 'run without --read-only' });
      },
      /exitCode|exits 1, not 0/,
    ],
  ];

  test.each(edits)('rejects %s', (_name, edit, said) => {
    const report = conformant();
    edit(report);
    const found = reportContradictions(report);
    expect(found.length, 'at least one contradiction').toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(said);
  });

  test('a verdict the schema allows but the requirements do not decide: partial while every MUST passed', () => {
    const report = conformant();
    report.verdict.overall = 'partial';
    // The schema alone wants an untested entry for a partial run; give it one that is not true.
    report.verdict.scope.untested.push({ id: 'MUS-001', level: 'MUST', code: 'precondition', reason: 'x', cover: 'y' });
    const found = reportContradictions(report);
    expect(found).toContain('scope: MUS-001 is in the untested list but has a tested verdict (or is out of scope)');
    expect(found.some((s) => s.startsWith('verdict: partial, but the requirements and harness errors decide conformant'))).toBe(true);
  });
});
