import { describe, expect, test } from 'vitest';
import { buildReport } from '../../src/report/build-report.ts';
import type { Deviation, RequirementVerdict, TestOutcome } from '../../src/report/report-types.ts';
import { requirementIdOf } from '../../src/report/requirement-verdict.ts';
import type { RunInfo } from '../../src/report/run-info.ts';
import { OPERATIONS, TINY_CATALOG, exchange, failed, finding, outcome, passed, runInfo, skipped } from '../support/report-builders.ts';

interface Options {
  strict?: boolean;
  harness?: Array<{ code: string; message: string }>;
  deviations?: Deviation[];
  run?: Partial<RunInfo>;
}

function report(tests: TestOutcome[], options: Options = {}) {
  return buildReport({
    runInfo: runInfo(options.run),
    catalog: TINY_CATALOG,
    tests,
    harnessErrors: options.harness ?? [],
    strict: options.strict ?? false,
    expectedDeviations: options.deviations,
    operations: OPERATIONS,
  });
}

/** Every tested requirement passes unless a test for it is given. */
function withPassing(tests: TestOutcome[]): TestOutcome[] {
  const given = new Set(tests.map(requirementIdOf));
  const rest = ['MUS-001', 'MUS-002', 'SHD-001', 'MAY-001'].filter((id) => !given.has(id)).map((id) => passed(id));
  return [...tests, ...rest];
}

const verdictOf = (r: ReturnType<typeof report>, id: string) => r.requirements.find((x) => x.id === id)!;

describe('requirement verdicts by level', () => {
  const cases: Array<[string, TestOutcome, boolean, RequirementVerdict, 'conformant' | 'not-conformant']> = [
    ['a failing MUST fails', failed('MUS-001', 'conformance'), false, 'fail', 'not-conformant'],
    ['a failing SHOULD warns', failed('SHD-001', 'conformance'), false, 'warn', 'conformant'],
    ['a failing SHOULD fails under --strict', failed('SHD-001', 'conformance'), true, 'fail', 'not-conformant'],
    ['a failing MAY warns', failed('MAY-001', 'conformance'), false, 'warn', 'conformant'],
    ['a failing MAY still warns under --strict', failed('MAY-001', 'conformance'), true, 'warn', 'conformant'],
  ];
  test.each(cases)('%s', (_title, test, strict, expected, overall) => {
    const r = report(withPassing([test]), { strict });
    expect(verdictOf(r, test.meta!.requirementId).verdict).toBe(expected);
    expect(r.verdict.overall).toBe(overall);
    expect(r.verdict.exitCode).toBe(overall === 'conformant' ? 0 : 1);
  });

  test('the verdict names the failing MUSTs in one sentence', () => {
    const r = report(withPassing([failed('MUS-001', 'conformance'), failed('MUS-002', 'conformance')]));
    expect(r.verdict.label).toBe('NOT CONFORMANT');
    expect(r.verdict.why).toBe('2 MUST requirements fail: MUS-001, MUS-002.');
  });

  test('a failure carries expected, actual, the last exchanges and the curl line', () => {
    const failure = verdictOf(report(withPassing([failed('MUS-001', 'conformance')])), 'MUS-001').failures[0]!;
    expect(failure).toMatchObject({ origin: 'test', expected: 'status 401', actual: 'status 200', occurrences: 1 });
    expect(failure.evidence.map((e) => e.seq)).toEqual([1, 2]);
    expect(failure.curl).toContain('$API_KEY');
  });

  test('a property failure keeps its seed, path and counterexample', () => {
    const property = { seed: 7, numRuns: 100, path: '3:1', counterexample: '{"categoryId":1.5}', shrinks: 2 };
    const failure = verdictOf(report(withPassing([failed('MUS-001', 'conformance', { property })])), 'MUS-001').failures[0]!;
    expect(failure.property).toEqual(property);
  });
});

describe('findings are attributed to the requirement they name', () => {
  test('a finding seen during another test fails its own requirement, with that exchange as evidence', () => {
    const carrier = passed('MUS-001', { exchanges: [exchange(1), exchange(2, { curl: 'curl the-second' })], findings: [finding('MUS-002', 2)] });
    const r = report(withPassing([carrier]));
    expect(verdictOf(r, 'MUS-001').verdict).toBe('pass');
    const broken = verdictOf(r, 'MUS-002');
    expect(broken.verdict).toBe('fail');
    expect(broken.failures[0]).toMatchObject({ origin: 'finding', check: 'rate-limit-headers', testId: carrier.id, curl: 'curl the-second' });
    expect(broken.failures[0]!.evidence.map((e) => e.seq)).toEqual([2]);
  });

  test('the same finding on many responses is one failure with a count', () => {
    const findings = [finding('MUS-002', 1), finding('MUS-002', 2), finding('MUS-002', 3), finding('MUS-002', 3, 'other')];
    const r = report(withPassing([passed('MUS-001', { exchanges: [exchange(1), exchange(2), exchange(3)], findings })]));
    expect(verdictOf(r, 'MUS-002').failures.map((f) => f.occurrences)).toEqual([3, 1]);
  });

  test('a finding fails a requirement even when its own test hit a harness error', () => {
    const r = report(withPassing([failed('MUS-002', 'harness'), passed('MUS-001', { exchanges: [exchange(1)], findings: [finding('MUS-002', 1)] })]));
    expect(verdictOf(r, 'MUS-002').verdict).toBe('fail');
    expect(r.verdict.overall).toBe('not-conformant');
    expect(r.verdict.why).toMatch(/the run was also incomplete/);
  });

  test('a finding naming a requirement the catalog lacks is a harness problem', () => {
    const r = report(withPassing([passed('MUS-001', { exchanges: [exchange(1)], findings: [finding('ZZZ-999', 1)] })]));
    expect(r.harnessErrors).toContainEqual(expect.objectContaining({ code: 'ERR_SPEC', requirementId: 'ZZZ-999' }));
    expect(r.verdict.overall).toBe('incomplete');
  });
});

describe('harness failures make the run incomplete, never not conformant', () => {
  test.each([
    ['a harness failure', failed('MUS-001', 'harness')],
    ['a failed test without meta', outcome('failed', undefined, { name: 'MUS-001 crashed', errors: ['TypeError: boom'] })],
  ])('%s', (_title, test) => {
    const r = report(withPassing([test]));
    const result = verdictOf(r, 'MUS-001');
    expect(result.verdict).toBe('skipped');
    expect(result.reason).toMatch(/^not proven: the suite failed/);
    expect(r.verdict).toMatchObject({ overall: 'incomplete', label: 'INCOMPLETE', exitCode: 2 });
    expect(r.harnessErrors).toHaveLength(1);
  });

  test('a problem outside any test (unreachable target) skips what did not run', () => {
    const r = report([], { harness: [{ code: 'ERR_TARGET_UNREACHABLE', message: 'cannot reach the target: connection refused' }] });
    expect(verdictOf(r, 'MUS-001')).toMatchObject({
      verdict: 'skipped',
      reason: 'not run: a harness error kept its test from running (ERR_TARGET_UNREACHABLE)',
    });
    expect(verdictOf(r, 'NCV-001').verdict).toBe('not-covered');
    expect(r.verdict.why).toBe('The run could not be completed: ERR_TARGET_UNREACHABLE: cannot reach the target: connection refused.');
  });

  test('an interrupted run says so for what did not run', () => {
    const r = report([], { harness: [{ code: 'ERR_ABORTED', message: 'the run was interrupted before every test had run' }] });
    expect(verdictOf(r, 'MUS-001')).toMatchObject({
      verdict: 'skipped',
      reason: 'not run: the run was interrupted before this requirement was tested (ERR_ABORTED)',
    });
    expect(r.verdict).toMatchObject({ overall: 'incomplete', exitCode: 2 });
  });

  test('a run in which no test ran is incomplete, not conformant', () => {
    const r = report([]);
    expect(r.verdict.overall).toBe('incomplete');
    expect(verdictOf(r, 'MUS-001')).toMatchObject({ verdict: 'skipped', reason: 'no test of this requirement ran', untestedCode: 'no-test' });
    expect(r.verdict.why).toMatch(/no requirement was tested/);
  });
});

describe('partial: nothing failed, some MUST in scope untested', () => {
  test.each([
    ['request budget spent: 55 of 55 requests (quick profile)', 'budget', /--profile thorough/],
    ['read-only mode: the test would call createPet', 'read-only', /without --read-only/],
    ['rate-limit exhaustion opted out (--no-exhaust)', 'no-exhaust', /--exhaust-key/],
    ['not in the quick profile (needs --profile standard)', 'profile', /--profile standard/],
    ['the key allows 1000 requests a minute; the standard budget has 412 left', 'key-too-large', /--exhaust-key/],
    ['precondition failed: createPet answered 400', 'precondition', /the target did not provide/],
  ] as const)('a MUST skipped for "%s" makes the run PARTIAL, listed with how to cover it', (reason, code, cover) => {
    const r = report(withPassing([skipped('MUS-002', reason, code)]));
    expect(verdictOf(r, 'MUS-002')).toMatchObject({ verdict: 'skipped', reason, untestedCode: code });
    expect(r.verdict).toMatchObject({ overall: 'partial', label: 'PARTIAL', exitCode: 0 });
    expect(r.verdict.scope).toMatchObject({ mustInScope: 2, mustTested: 1 });
    expect(r.verdict.scope.untested).toEqual([{ id: 'MUS-002', level: 'MUST', code, reason, cover: expect.stringMatching(cover) }]);
    expect(r.verdict.why).toMatch(/^Nothing failed, but only 1 of 2 MUST requirements in scope were tested; untested: MUS-002/);
  });

  test('with --require-complete a partial run exits 1', () => {
    const r = report(withPassing([skipped('MUS-002', 'x', 'profile')]), { run: { requireComplete: true } });
    expect(r.verdict).toMatchObject({ overall: 'partial', exitCode: 1 });
  });

  test('a failure found wins over untested requirements', () => {
    const r = report([failed('MUS-001', 'conformance'), skipped('MUS-002', 'x', 'profile')]);
    expect(r.verdict).toMatchObject({ overall: 'not-conformant', exitCode: 1 });
    expect(r.verdict.why).toMatch(/1 of 2 MUST requirements in scope were tested/);
  });

  test('a harness error wins over untested requirements: incomplete', () => {
    const r = report([passed('MUS-001'), skipped('MUS-002', 'x', 'profile')], { harness: [{ code: 'ERR_ABORTED', message: 'interrupted' }] });
    expect(r.verdict).toMatchObject({ overall: 'incomplete', exitCode: 2 });
  });

  test('an untested SHOULD leaves the run conformant, but not under --strict', () => {
    const tests = withPassing([skipped('SHD-001', 'x', 'profile')]);
    expect(report(tests).verdict.overall).toBe('conformant');
    const strict = report(tests, { strict: true });
    expect(strict.verdict.overall).toBe('partial');
    expect(strict.verdict.scope).toMatchObject({ shouldInScope: 1, shouldTested: 0 });
  });

  test('out-of-scope requirements never make a run partial', () => {
    const r = report(withPassing([]));
    expect(r.verdict.overall).toBe('conformant');
    expect(r.verdict.scope.untested).toEqual([]);
    expect(r.verdict.why).toMatch(/^All 2 MUST requirements in scope were tested and pass/);
  });
});

describe('skipped and not covered', () => {
  test('a requirement with one passing and one skipped test is partly tested, which counts as untested', () => {
    const r = report(withPassing([passed('MUS-001'), skipped('MUS-001', 'read-only mode', 'read-only')]));
    expect(verdictOf(r, 'MUS-001')).toMatchObject({
      verdict: 'partial',
      reason: 'partially tested: 1 of 2 tests skipped (read-only mode)',
      untestedCode: 'read-only',
      notes: ['1 of 2 tests passed; the others were skipped'],
    });
    expect(r.verdict.overall).toBe('partial');
    expect(r.counts.MUST.partial).toBe(1);
  });

  test('vitest skip notes are used when the test left no meta', () => {
    const r = report(withPassing([outcome('skipped', undefined, { name: 'MUS-002 filtered', skipNote: 'filtered by name' })]));
    expect(verdictOf(r, 'MUS-002')).toMatchObject({ verdict: 'skipped', reason: 'filtered by name' });
  });

  test('not-covered requirements carry the catalog reason', () => {
    expect(verdictOf(report(withPassing([])), 'NCV-001')).toMatchObject({ verdict: 'not-covered', reason: 'The interface does not show it.' });
  });

  test('requirements left out by --only are skipped, not missing', () => {
    const r = report([passed('MUS-001')], { run: { only: ['MUS-001'] } });
    expect(verdictOf(r, 'MUS-002')).toMatchObject({ verdict: 'skipped', reason: 'not selected (--only MUS-001)', untestedCode: 'not-selected' });
    expect(r.verdict.overall).toBe('partial');
    expect(r.verdict.notes[0]).toMatch(/Only MUS-001 selected/);
  });
});

describe('expected deviations', () => {
  test('a declared MUST deviation: not conformant (known deviations only)', () => {
    const r = report(withPassing([failed('MUS-001', 'conformance')]), { deviations: [{ id: 'MUS-001', reason: 'Legacy clients need it' }] });
    expect(verdictOf(r, 'MUS-001')).toMatchObject({ verdict: 'deviation', reason: 'Legacy clients need it', deviationOf: 'fail' });
    expect(r.verdict).toMatchObject({ overall: 'not-conformant', knownDeviationsOnly: true, label: 'NOT CONFORMANT (known deviations only)', exitCode: 1 });
    expect(r.deviations).toEqual([{ id: 'MUS-001', reason: 'Legacy clients need it', status: 'applied' }]);
  });

  test('an undeclared failure beside a declared one is a plain failure', () => {
    const r = report(withPassing([failed('MUS-001', 'conformance'), failed('MUS-002', 'conformance')]), { deviations: [{ id: 'MUS-001', reason: 'r' }] });
    expect(r.verdict).toMatchObject({ overall: 'not-conformant', knownDeviationsOnly: false });
    expect(r.verdict.why).toBe('1 MUST requirement fails: MUS-002; 1 more requirement deviates as declared.');
  });

  test('a declared SHOULD deviation does not change a conformant verdict', () => {
    const r = report(withPassing([failed('SHD-001', 'conformance')]), { deviations: [{ id: 'SHD-001', reason: 'r' }] });
    expect(verdictOf(r, 'SHD-001')).toMatchObject({ verdict: 'deviation', deviationOf: 'warn' });
    expect(r.verdict.overall).toBe('conformant');
  });

  test('a listed deviation that passes, or names nothing, is flagged, never silently accepted', () => {
    const r = report(withPassing([]), {
      deviations: [
        { id: 'MUS-001', reason: 'r' },
        { id: 'ZZZ-001', reason: 'r' },
      ],
    });
    expect(verdictOf(r, 'MUS-001')).toMatchObject({ verdict: 'pass', notes: ['deviation listed but requirement passes'] });
    expect(r.deviations.map((d) => d.status)).toEqual(['requirement-passes', 'unknown-requirement']);
    expect(r.verdict.notes.join(' ')).toMatch(/MUS-001, but the requirement passes.*ZZZ-001, which is not a requirement/);
  });
});

describe('what a baselined failure leaves untested', () => {
  const behind = 'precondition failed: createPet answered 200, not 201 with a Pet (see MUS-001, SCH-002)';
  const known: Deviation = { id: 'MUS-001', reason: 'known', source: 'baseline' };

  test('is accepted with that entry: require-complete passes the gate, and the reason says what was accepted', () => {
    const r = report(withPassing([failed('MUS-001', 'conformance'), skipped('MUS-002', behind)]), { deviations: [known], run: { requireComplete: true } });
    expect(r.verdict).toMatchObject({ overall: 'not-conformant', knownDeviationsOnly: true, exitCode: 0 });
    expect(r.verdict.scope.untested).toEqual([expect.objectContaining({ id: 'MUS-002', acceptedBy: 'MUS-001' })]);
    expect(r.verdict.why).toMatch(/1 requirement untested behind them is accepted with them \(MUS-002\), so the gate passes/);
  });

  test('anything else untested still fails require-complete: another cause, or another failure named', () => {
    for (const [reason, code] of [
      ['x', 'profile'],
      ['precondition failed: createPet answered 200, not 201 with a Pet (see MUS-002)', undefined],
      ['the target said (see MUS-001) in its body', undefined],
    ] as const) {
      const r = report(withPassing([failed('MUS-001', 'conformance'), skipped('MUS-002', reason, code)]), {
        deviations: [known],
        run: { requireComplete: true },
      });
      expect(r.verdict.exitCode, reason).toBe(1);
      expect(r.verdict.scope.untested[0]?.acceptedBy, reason).toBeUndefined();
    }
  });

  test('a declared deviation (not the baseline) accepts nothing', () => {
    const r = report(withPassing([failed('MUS-001', 'conformance'), skipped('MUS-002', behind)]), {
      deviations: [{ id: 'MUS-001', reason: 'declared' }],
      run: { requireComplete: true },
    });
    expect(r.verdict.exitCode).toBe(1);
    expect(r.verdict.scope.untested[0]?.acceptedBy).toBeUndefined();
  });
});

describe('the rest of the report', () => {
  test('counts by level and verdict', () => {
    const r = report(withPassing([failed('MUS-001', 'conformance'), failed('SHD-001', 'conformance')]));
    expect(r.counts.MUST).toMatchObject({ pass: 1, fail: 1 });
    expect(r.counts.SHOULD).toMatchObject({ warn: 1 });
    expect(r.counts.MAY).toMatchObject({ pass: 1, 'not-covered': 1 });
  });

  test('coverage matrix counts responses per documented status and shows undocumented ones', () => {
    const exchanges = [exchange(1), exchange(2), exchange(3, { response: { status: 500, headers: {} } }), exchange(4, { operationId: undefined })];
    const r = report(withPassing([passed('MUS-001', { exchanges })]));
    expect(r.coverage[0]!.cells).toEqual([
      { status: '200', documented: true, notStated: false, count: 2 },
      { status: '400', documented: true, notStated: true, count: 0 },
      { status: '401', documented: true, notStated: false, count: 0 },
      { status: '500', documented: false, notStated: false, count: 1 },
    ]);
    expect(r.traffic).toMatchObject({ requestCount: 4, otherRequests: 1 });
  });

  test('rate-limit observations are sorted by time', () => {
    const r = report(withPassing([passed('MUS-001', { exchanges: [exchange(5), exchange(2)] })]));
    expect(r.traffic.rateLimit.map((p) => p.startedAt)).toEqual([exchange(2).startedAt, exchange(5).startedAt]);
  });

  test('credentials never reach the report through the run info', () => {
    const r = report(withPassing([]), {
      run: { target: { url: 'https://user:s3cret@api.example/v1?key=s3cret', embedded: false }, command: 'run --api-key s3cret --seed 1' },
    });
    expect(JSON.stringify(r.run)).not.toContain('s3cret');
    expect(r.run.command).toBe('run --api-key "$API_KEY" --seed 1');
  });
});
