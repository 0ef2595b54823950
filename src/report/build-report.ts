import type { Catalog, Level, Requirement } from '../catalog/catalog.ts';
import { type OperationInfo, createContract } from '../contract/index.ts';
import { deviationNotes } from './deviations.ts';
import { capFailures, findingFailures, testFailure } from './failure-evidence.ts';
import {
  type ConformanceReport,
  type Deviation,
  type HarnessProblem,
  LEVELS,
  type LevelCounts,
  REPORT_FORMAT,
  REPORT_FORMAT_VERSION,
  REQUIREMENT_VERDICTS,
  type RequirementResult,
  type RequirementVerdict,
  type TestOutcome,
  type TestSummary,
} from './report-types.ts';
import { decideOverall } from './overall-verdict.ts';
import { decideRequirement, unprovableOf, harnessFailureOf, requirementIdOf, skipReasonOf } from './requirement-verdict.ts';
import { type RunInfo, sanitizeRunInfo } from './run-info.ts';
import { collectExchanges, coverageMatrix, trafficOf } from './traffic.ts';

export interface ReportInput {
  runInfo: RunInfo;
  catalog: Catalog;
  tests: readonly TestOutcome[];
  /** Problems outside any test: unreachable target, interrupted run, failed setup, unhandled errors. */
  harnessErrors: ReadonlyArray<{ code: string; message: string }>;
  strict: boolean;
  expectedDeviations?: readonly Deviation[];
  /** The spec's operations for the coverage matrix; read from spec/openapi.yaml when absent. */
  operations?: readonly OperationInfo[];
}

/** Turns test outcomes into verdicts. Pure apart from reading the spec when `operations` is not given. */
export function buildReport(input: ReportInput): ConformanceReport {
  const { catalog, tests, strict } = input;
  const run = sanitizeRunInfo({ ...input.runInfo, strict });
  const runProblems: HarnessProblem[] = input.harnessErrors.map((e) => ({ code: e.code, message: e.message }));
  const testProblems = tests.map(harnessFailureOf).filter((p): p is HarnessProblem => p !== undefined);
  const byRequirement = groupByRequirement(tests);
  const unknown = [...byRequirement.keys(), ...findingIds(tests)].filter((id) => !catalog.has(id));
  const catalogProblems = [...new Set(unknown)].map((id) => ({
    code: 'ERR_SPEC',
    message: `a test reports requirement ${id}, which the catalog does not hold`,
    requirementId: id,
  }));
  const deviations = new Map((input.expectedDeviations ?? []).map((d) => [d.id, d]));

  // Expiry dates are days: the run's own day, so a replay of a report decides the same way.
  const today = run.startedAt.slice(0, 10);
  const requirements = catalog.requirements.map((requirement) =>
    resultFor(requirement, byRequirement.get(requirement.id) ?? [], tests, {
      strict,
      deviation: deviations.get(requirement.id),
      runProblem: runProblems[0],
      only: run.only,
      shard: run.shard,
      plan: run.plan,
      today,
    }),
  );
  const harnessErrors = [...runProblems, ...testProblems, ...catalogProblems];
  const notes = deviationNotes(input.expectedDeviations ?? [], requirements, today);
  const exchanges = collectExchanges(tests);
  return {
    format: REPORT_FORMAT,
    formatVersion: REPORT_FORMAT_VERSION,
    run,
    verdict: decideOverall(requirements, harnessErrors, notes, run),
    counts: countVerdicts(requirements),
    areas: Object.entries(catalog.areas).map(([id, title]) => ({ id, title })),
    requirements,
    harnessErrors,
    deviations: notes,
    coverage: coverageMatrix(input.operations ?? createContract().operations, exchanges),
    traffic: trafficOf(exchanges, run.target.embedded ? undefined : run.plan),
  };
}

function resultFor(
  requirement: Requirement,
  own: readonly TestOutcome[],
  allTests: readonly TestOutcome[],
  context: Parameters<typeof decideRequirement>[3],
): RequirementResult {
  const fromTests = own.flatMap((t) => (t.state === 'failed' && t.meta?.failure?.kind === 'conformance' ? [testFailure(t, t.meta)] : []));
  const all = [...fromTests, ...findingFailures(requirement.id, allTests)];
  const unprovable = unprovableOf(
    requirement.id,
    allTests.flatMap((t) => (t.meta?.unprovable ?? []).map((u) => ({ ...u, exchange: u.exchangeSeq }))),
  );
  const decision = decideRequirement(requirement, own, all, { ...context, unprovable });
  const { failures, omitted } = capFailures(all);
  const result: RequirementResult = {
    id: requirement.id,
    area: requirement.area,
    level: requirement.level,
    source: requirement.source,
    text: requirement.text,
    coverage: requirement.coverage,
    verdict: decision.verdict,
    // What the tests saw that a reader should know ("RateLimit not sent") goes with the verdict.
    notes: [...new Set([...decision.notes, ...own.flatMap((t) => t.meta?.notes ?? [])])],
    tests: own.map(summarise),
    failures,
    omittedFailures: omitted,
  };
  if (decision.reason !== undefined) result.reason = decision.reason;
  if (decision.untestedCode !== undefined) result.untestedCode = decision.untestedCode;
  if (decision.deviationOf !== undefined) result.deviationOf = decision.deviationOf;
  if (requirement.accepts) result.accepts = [...requirement.accepts];
  if (requirement.needs) result.needs = requirement.needs;
  return result;
}

function summarise(test: TestOutcome): TestSummary {
  const summary: TestSummary = {
    id: test.id,
    name: test.name,
    file: test.file,
    state: test.state,
    durationMs: Math.round(test.durationMs),
    requests: test.meta?.exchanges.filter((e) => !e.sharedFrom).length ?? 0,
  };
  if (test.meta?.observed !== undefined) summary.observed = test.meta.observed;
  // What a verifier needs to re-judge the test from the exchange log (src/certificate/rejudge.ts).
  const exchanges = test.meta?.exchanges ?? [];
  const own = exchanges.filter((e) => !e.sharedFrom).map((e) => e.seq);
  const shared = exchanges.filter((e) => e.sharedFrom).map((e) => e.seq);
  if (own.length > 0) summary.exchanges = own;
  if (shared.length > 0) summary.shared = shared;
  if (test.meta?.judgments?.length) summary.judgments = test.meta.judgments;
  const findings = test.meta?.findings ?? [];
  if (findings.length > 0) summary.findings = findings.map((f) => ({ check: f.check, requirementId: f.requirementId, exchange: f.exchangeSeq }));
  const unprovable = test.meta?.unprovable ?? [];
  if (unprovable.length > 0) summary.unprovable = unprovable.map((u) => ({ check: u.check, requirementId: u.requirementId, exchange: u.exchangeSeq }));
  if (test.state === 'skipped') {
    summary.skipReason = skipReasonOf(test);
    if (test.meta?.skipCode) summary.skipCode = test.meta.skipCode;
    if (test.notRun) summary.notRun = true;
  }
  if (test.state === 'failed') summary.failureKind = harnessFailureOf(test) ? 'harness' : 'conformance';
  const property = test.meta?.property;
  if (property) {
    summary.property = { seed: property.seed, numRuns: property.numRuns, ...(property.families ? { families: property.families } : {}) };
  }
  return summary;
}

function groupByRequirement(tests: readonly TestOutcome[]): Map<string, TestOutcome[]> {
  const out = new Map<string, TestOutcome[]>();
  for (const test of tests) {
    const id = requirementIdOf(test);
    if (id === undefined) continue;
    const list = out.get(id);
    if (list) list.push(test);
    else out.set(id, [test]);
  }
  return out;
}

function findingIds(tests: readonly TestOutcome[]): string[] {
  return tests.flatMap((t) => t.meta?.findings.map((f) => f.requirementId) ?? []);
}

function countVerdicts(requirements: readonly RequirementResult[]): LevelCounts {
  const empty = (): Record<RequirementVerdict, number> => Object.fromEntries(REQUIREMENT_VERDICTS.map((v) => [v, 0])) as Record<RequirementVerdict, number>;
  const counts = Object.fromEntries(LEVELS.map((level) => [level, empty()])) as LevelCounts;
  for (const r of requirements) counts[r.level as Level][r.verdict] += 1;
  return counts;
}
