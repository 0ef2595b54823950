import type { Catalog } from '../catalog/catalog.ts';
import type { ConformanceMeta } from '../report/test-meta.ts';
import { deviationNotes } from '../report/deviations.ts';
import type {
  ConformanceReport,
  Deviation,
  FailureDetail,
  HarnessProblem,
  RequirementResult,
  TestOutcome,
  TestSummary,
  Verdict,
} from '../report/report-types.ts';
import { decideOverall } from '../report/overall-verdict.ts';
import { decideRequirement, unprovableOf } from '../report/requirement-verdict.ts';

/** What the per-test outcomes of a report give, decided by the functions the run itself uses. */
export interface Rederived {
  /** Requirements whose stated verdict is not the one their tests and checks give, as "ID: states x, tests give y". */
  requirementMismatches: string[];
  /** Requirements the catalog and the report disagree on (missing, extra, another level or coverage). */
  catalogMismatches: string[];
  verdict: Verdict;
}

/**
 * Re-derives every requirement's verdict from its tests (state, whom a failure blames, skip codes) and
 * the failures the report records, with decideRequirement; then the run's verdict from those with
 * decideOverall. Requirements come from the verifier's own catalog, so a report cannot lower a MUST.
 */
export function rederive(report: ConformanceReport, catalog: Catalog): Rederived {
  const { run } = report;
  const byId = new Map(report.requirements.map((r) => [r.id, r]));
  const catalogMismatches = report.requirements.filter((r) => !catalog.has(r.id)).map((r) => `${r.id}: not a requirement of this suite's catalog`);
  const runProblem = report.harnessErrors.find((p) => p.testId === undefined && p.requirementId === undefined);
  const declared: Deviation[] = report.deviations.map(({ status: _status, ...d }) => d);
  const deviations = new Map(declared.map((d) => [d.id, d]));
  const today = run.startedAt.slice(0, 10);
  const requirementMismatches: string[] = [];
  const requirements: RequirementResult[] = [];
  // A check the log cannot prove is recorded by the test that sent the answer, whichever requirement it names.
  const unprovable = report.requirements.flatMap((r) => r.tests.flatMap((t) => t.unprovable ?? []));
  const testProblems: HarnessProblem[] = [];
  for (const requirement of catalog.requirements) {
    const stated = byId.get(requirement.id);
    if (!stated) {
      catalogMismatches.push(`${requirement.id}: missing from the report`);
      continue;
    }
    if (
      stated.level !== requirement.level ||
      stated.coverage !== requirement.coverage ||
      stated.needs !== requirement.needs ||
      stated.area !== requirement.area ||
      stated.text !== requirement.text ||
      stated.source !== requirement.source
    ) {
      catalogMismatches.push(
        `${requirement.id}: the report states it otherwise than the catalog (level, coverage, area, source or text: ${stated.level}/${stated.coverage}, the catalog ${requirement.level}/${requirement.coverage})`,
      );
    }
    const own = stated.tests.map((t) => outcomeOf(t, report.harnessErrors));
    for (const test of own) {
      if (test.meta?.failure?.kind === 'harness')
        testProblems.push({ code: test.meta.failure.code, message: test.meta.failure.message, testId: test.id, requirementId: requirement.id });
    }
    const decision = decideRequirement(requirement, own, failuresOf(stated, own), {
      unprovable: unprovableOf(requirement.id, unprovable),
      strict: run.strict,
      deviation: deviations.get(requirement.id),
      runProblem,
      only: run.only,
      shard: run.shard,
      plan: run.plan,
      today,
    });
    if (decision.verdict !== stated.verdict) requirementMismatches.push(`${requirement.id}: states ${stated.verdict}, its tests give ${decision.verdict}`);
    const { untestedCode: _code, deviationOf: _of, reason: _reason, ...rest } = { ...stated, ...requirement };
    requirements.push({
      ...rest,
      verdict: decision.verdict,
      ...(decision.untestedCode ? { untestedCode: decision.untestedCode } : {}),
      ...(decision.deviationOf ? { deviationOf: decision.deviationOf } : {}),
      ...(decision.reason !== undefined ? { reason: decision.reason } : requirement.reason !== undefined ? { reason: requirement.reason } : {}),
    });
  }
  const runProblems = report.harnessErrors.filter((p) => p.testId === undefined);
  const verdict = decideOverall(requirements, [...runProblems, ...testProblems], deviationNotes(declared, requirements, today), run);
  return { requirementMismatches, catalogMismatches, verdict };
}

/** A test of the report as the verdict functions read it: its state, whom a failure blames, why it was skipped. */
function outcomeOf(test: TestSummary, problems: readonly HarnessProblem[]): TestOutcome {
  const outcome: TestOutcome = { id: test.id, name: test.name, file: test.file, state: test.state, durationMs: test.durationMs, errors: [] };
  // A test the run never reached is untested for the run's problem, not for a precondition.
  if (test.notRun) outcome.notRun = true;
  const meta: ConformanceMeta = { requirementId: '', level: 'MUST', area: '', findings: [], exchanges: [] };
  if (test.state === 'skipped') {
    // The reason is kept as the note too: "did not run" (the run ended first) decides the untested code.
    if (test.skipReason !== undefined) {
      meta.skipReason = test.skipReason;
      outcome.skipNote = test.skipReason;
    }
    if (test.skipCode !== undefined) meta.skipCode = test.skipCode;
  }
  if (test.state === 'failed') {
    // A failed test blames the target only when the report says so; anything else makes the run incomplete.
    const problem = problems.find((p) => p.testId === test.id);
    meta.failure =
      test.failureKind === 'conformance'
        ? { kind: 'conformance', code: 'ERR_CONFORMANCE', message: 'failed' }
        : { kind: 'harness', code: problem?.code ?? 'ERR_INTERNAL', message: problem?.message ?? 'the test failed without recording why' };
  }
  return { ...outcome, meta };
}

/** The report's failures, plus one for each failed test it blames on the target but lists no failure of. */
function failuresOf(stated: RequirementResult, own: readonly TestOutcome[]): FailureDetail[] {
  const listed = stated.failures;
  const missing = own.filter((t) => t.meta?.failure?.kind === 'conformance' && !listed.some((f) => f.origin === 'test' && f.testId === t.id));
  return [
    ...listed,
    ...missing.map((t): FailureDetail => ({ origin: 'test', testId: t.id, testName: t.name, message: 'failed', occurrences: 1, evidence: [] })),
  ];
}
