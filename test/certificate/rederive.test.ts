import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { rederive } from '../../src/certificate/index.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { ConformanceReport, TestOutcome } from '../../src/report/report-types.ts';
import { OPERATIONS, failed, meta, outcome, runInfo } from '../support/report-builders.ts';
import { sampleReport } from '../support/sample-report.ts';

const catalog = loadCatalog();

/** One test per requirement the suite tests, passing unless `change` says otherwise. */
function run(change: (id: string) => TestOutcome | undefined = () => undefined): TestOutcome[] {
  return catalog.requirements
    .filter((r) => r.coverage !== 'not-covered')
    .map((r) => change(r.id) ?? { ...outcome('passed', meta(r.id, { level: r.level, area: r.area })), name: `${r.id} passes` });
}

const build = (tests: TestOutcome[], extra: Partial<Parameters<typeof buildReport>[0]> = {}): ConformanceReport =>
  buildReport({ runInfo: runInfo({ plan: 'pro' }), catalog, tests, harnessErrors: [], strict: false, operations: OPERATIONS, ...extra });

/** verify re-derives what the run decided: for every kind of run, the same verdicts, never a mismatch. */
describe('re-derivation from per-test outcomes agrees with the run', () => {
  const cases: Array<[string, ConformanceReport]> = [
    ['conformant', build(run())],
    ['a MUST failed by its test', build(run((id) => (id === 'AUTH-001' ? failed(id, 'conformance') : undefined)))],
    ['a suite error (harness failure)', build(run((id) => (id === 'AUTH-002' ? failed(id, 'harness') : undefined)))],
    [
      'an interrupted run (tests that did not run)',
      build(
        run((id) =>
          id.startsWith('RATE') ? outcome('skipped', meta(id), { name: `${id} cancelled`, skipNote: 'did not run: the run ended first' }) : undefined,
        ),
        { harnessErrors: [{ code: 'ERR_ABORTED', message: 'interrupted' }] },
      ),
    ],
    [
      'strict, with a failing SHOULD',
      build(
        run((id) => (catalog.get(id).level === 'SHOULD' && id.startsWith('ERR') ? failed(id, 'conformance') : undefined)),
        { strict: true, runInfo: runInfo({ plan: 'pro', strict: true }) },
      ),
    ],
    ['no plan (RATE-008 untested)', build(run(), { runInfo: runInfo() })],
    ['the sample run: findings, a declared deviation, skips', sampleReport().report],
    ['the sample run with harness errors', sampleReport({ harnessErrors: true }).report],
  ];

  it.each(cases)('%s', (_label, report) => {
    const derived = rederive(report, catalog);
    expect(derived.requirementMismatches).toEqual([]);
    expect(derived.catalogMismatches).toEqual([]);
    expect({ overall: derived.verdict.overall, label: derived.verdict.label, scope: derived.verdict.scope }).toEqual({
      overall: report.verdict.overall,
      label: report.verdict.label,
      scope: report.verdict.scope,
    });
  });

  it('a requirement stated pass while its test failed, or a MUST given as a MAY, is named', () => {
    const report = build(run((id) => (id === 'AUTH-001' ? failed(id, 'conformance') : undefined)));
    const auth = report.requirements.find((r) => r.id === 'AUTH-001');
    const other = report.requirements.find((r) => r.id === 'AUTH-002');
    if (!auth || !other) throw new Error('catalog holds AUTH-001 and AUTH-002');
    Object.assign(auth, { verdict: 'pass', failures: [] });
    Object.assign(other, { level: 'MAY' });
    const derived = rederive(report, catalog);
    expect(derived.requirementMismatches).toEqual(['AUTH-001: states pass, its tests give fail']);
    expect(derived.catalogMismatches).toEqual([expect.stringMatching(/^AUTH-002: the report states it otherwise than the catalog .*: MAY\//)]);
    expect(derived.verdict.overall).toBe('not-conformant');
  });
});
