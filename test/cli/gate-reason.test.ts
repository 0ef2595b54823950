import { describe, expect, test } from 'vitest';
import { gateDecision, gateLine } from '../../src/cli/gate-reason.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { Deviation, TestOutcome } from '../../src/report/report-types.ts';
import type { RunInfo } from '../../src/report/run-info.ts';
import { OPERATIONS, TINY_CATALOG, failed, passed, runInfo, skipped } from '../support/report-builders.ts';

function report(tests: TestOutcome[], options: { deviations?: Deviation[]; run?: Partial<RunInfo>; harness?: Array<{ code: string; message: string }> } = {}) {
  const given = new Set(tests.map((t) => t.meta?.requirementId));
  const rest = ['MUS-001', 'MUS-002', 'SHD-001', 'MAY-001'].filter((id) => !given.has(id)).map((id) => passed(id));
  return buildReport({
    runInfo: runInfo(options.run),
    catalog: TINY_CATALOG,
    tests: [...tests, ...rest],
    harnessErrors: options.harness ?? [],
    strict: false,
    expectedDeviations: options.deviations,
    operations: OPERATIONS,
  });
}

const known = (id: string, extra: Partial<Deviation> = {}): Deviation => ({ id, reason: 'known', source: 'baseline', ...extra });

describe('every gate decision says which rule decided', () => {
  test.each<[string, ReturnType<typeof report>, 'pass' | 'fail', RegExp]>([
    ['conformant', report([]), 'pass', /^CONFORMANT: every MUST in scope was tested and passes$/],
    [
      'a known failure of the baseline',
      report([failed('MUS-001', 'conformance')], { deviations: [known('MUS-001')] }),
      'pass',
      /known failure of the baseline \(MUS-001\)/,
    ],
    [
      'a failure the baseline does not list',
      report([failed('MUS-001', 'conformance'), failed('MUS-002', 'conformance')], { deviations: [known('MUS-001')] }),
      'fail',
      /^1 requirement fails that the baseline does not list: MUS-002$/,
    ],
    [
      'an expired entry',
      report([failed('MUS-001', 'conformance')], { deviations: [known('MUS-001', { expires: '2020-01-01' })] }),
      'fail',
      /baseline entry MUS-001 expired on 2020-01-01/,
    ],
    [
      'a declared deviation',
      report([failed('MUS-001', 'conformance')], { deviations: [{ id: 'MUS-001', reason: 'r' }] }),
      'fail',
      /declared deviations fail the gate.*MUS-001/,
    ],
    [
      'require-complete',
      report([skipped('MUS-002', 'needs thorough', 'profile')], { run: { requireComplete: true } }),
      'fail',
      /^require-complete: 1 MUST untested \(MUS-002\): profile \(1\); use --profile thorough$/,
    ],
    [
      'a partial run without require-complete',
      report([skipped('MUS-002', 'x', 'profile')]),
      'pass',
      /nothing failed; 1 MUST untested \(MUS-002\) and require-complete is off/,
    ],
    [
      'INCOMPLETE',
      report([], { harness: [{ code: 'ERR_AUTH_SETUP', message: 'the key was refused' }] }),
      'fail',
      /^INCOMPLETE: ERR_AUTH_SETUP: the key was refused$/,
    ],
  ])('%s', (_title, r, gate, reason) => {
    const decision = gateDecision(r);
    expect(decision.gate).toBe(gate);
    expect(decision.exitCode === 0).toBe(gate === 'pass');
    expect(decision.reason).toMatch(reason);
    expect(gateLine(decision)).toBe(`Gate: ${gate} (exit ${decision.exitCode}): ${decision.reason}`);
  });
});
