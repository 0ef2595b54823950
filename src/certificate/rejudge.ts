import type { Catalog } from '../catalog/catalog.ts';
import { runChecks } from '../checks/registry.ts';
import type { Finding } from '../checks/check-types.ts';
import type { Contract } from '../contract/index.ts';
import { findingFailures } from '../report/failure-evidence.ts';
import type { ConformanceReport, FailureDetail, RequirementResult, TestOutcome, TestSummary } from '../report/report-types.ts';
import { type RecordedEntry, checkContextOf, readHarEntries } from './rejudge-har.ts';
import { logIntegrityProblems } from './log-integrity.ts';
import { loggedCreates } from './run-creates.ts';
import { rederive } from './rederive.ts';
import { countDifferences, timingDifferences } from './log-counts.ts';
import { judgeTest } from './judge-test.ts';
import { checksFor } from './recorded-checks.ts';
import type { RejudgeOptions, RejudgeStats, Rejudgement } from './rejudge-types.ts';

export type { RejudgeOptions, RejudgeStats, Rejudgement } from './rejudge-types.ts';
export { CHECKS_TAKEN_AS_RECORDED } from './judge-test.ts';
export { BODY_CHECKS, UNRECORDED_CHECKS } from './recorded-checks.ts';

/**
 * Re-judges a report from its exchange log alone, with this suite's checks and verdict functions:
 * (a) every always-on check is run again on every logged response, and the findings must be exactly the
 * ones the report records; (b) every judgment a test recorded as data is evaluated again on the entry it
 * names; (c) a passed test with no logged exchange that proves it, or with one that fails its judgment,
 * is refused; (d) request counts per test and per run, the status coverage, and the timing must agree with
 * the log; (e) every requirement and the run's verdict are decided again from the re-judged outcomes.
 */
export function rejudge(report: ConformanceReport, har: unknown, catalog: Catalog, contract: Contract, options: RejudgeOptions = {}): Rejudgement {
  const differences: string[] = [];
  const stats: RejudgeStats = {
    entries: 0,
    checkedWhole: 0,
    headersOnly: 0,
    notChecked: 0,
    summarised: 0,
    judgments: 0,
    rules: 0,
    rulesTakenAsRecorded: 0,
    rulesUnproven: 0,
    checks: 0,
  };
  const read = readHarEntries(har);
  if ('problem' in read) return { differences: [read.problem], refusedTests: [], verdict: 'unknown', stats };
  const { entries } = read;
  stats.entries = entries.length;
  const bySeq = new Map<number, RecordedEntry>();
  for (const entry of entries) {
    if (bySeq.has(entry.seq)) differences.push(`HAR entry #${entry.seq} appears twice`);
    bySeq.set(entry.seq, entry);
  }
  const tests = report.requirements.flatMap((r) => r.tests);
  differences.push(...logIntegrityProblems(entries), ...timingDifferences(report, entries), ...countDifferences(report, tests, entries, bySeq));
  const owner = ownerOf(tests);

  // (a) The always-on checks, again, on every response.
  const recomputed = new Map<string, Finding[]>();
  const findingDiffs = new Set<string>();
  const key = (seq: number, check: string, requirementId: string) => `${seq}\u0000${check}\u0000${requirementId}`;
  const recorded = new Map<string, { test: TestSummary; requirementId: string }>();
  for (const test of tests)
    for (const f of test.findings ?? []) recorded.set(key(f.exchange, f.check, f.requirementId), { test, requirementId: f.requirementId });
  // What the report says the log cannot prove: checks that fail only on a redacted record (harness/unprovable.ts).
  const unprovable = new Map<string, TestSummary>();
  for (const test of tests) for (const u of test.unprovable ?? []) unprovable.set(key(u.exchange, u.check, u.requirementId), test);
  const reproduced = new Set<string>();
  for (const entry of entries) {
    const checks = checksFor(entry, stats);
    if (checks.length === 0) continue;
    const test = owner.get(entry.seq);
    for (const finding of runChecks(checkContextOf(entry, contract), checks)) {
      const k = key(entry.seq, finding.check, finding.requirementId);
      reproduced.add(k);
      // Stated as unprovable, on an answer the log holds redacted: its requirement is untested, not failed.
      if (entry.redacted && unprovable.has(k) && !recorded.has(k)) continue;
      if (test) recomputed.set(test.id, [...(recomputed.get(test.id) ?? []), finding]);
      if (!recorded.has(k)) {
        differences.push(`${testLabel(test)}: the check ${finding.check} fails ${finding.requirementId} on #${entry.seq}, which the report does not record`);
        findingDiffs.add(finding.requirementId);
      }
    }
  }
  for (const [k, { test, requirementId }] of recorded) {
    if (reproduced.has(k)) continue;
    const [seqText, check] = k.split('\u0000');
    const entry = bySeq.get(Number(seqText));
    const rerun = entry !== undefined && checksFor(entry, undefined).some((c) => c.name === check);
    // A failure the run saw on an answer the log holds redacted stands as recorded: it can only fail.
    if ((rerun && !entry.redacted) || !entry) {
      differences.push(
        `${testLabel(test)}: the report records ${check} failing ${requirementId} on #${seqText}, which the log ${entry ? 'does not reproduce' : 'does not hold'}`,
      );
      findingDiffs.add(requirementId);
    }
  }

  for (const [k, test] of unprovable) {
    const entry = bySeq.get(Number(k.split('\u0000')[0]));
    // A summarised entry (a report directory's log) decides nothing of its answer; a bundle's is whole.
    if (entry?.summarised || (reproduced.has(k) && entry?.redacted)) continue;
    const [seqText, check, requirementId] = k.split('\u0000');
    differences.push(
      `${test.name}: the report says the log cannot prove ${check} (${requirementId}) on #${seqText}, which the log does not bear out (the answer is not held redacted, or the check passes on it)`,
    );
    findingDiffs.add(requirementId ?? '');
  }

  // (b), (c) The judgments of every passed test, on the entries they name.
  const refused = new Map<string, { test: TestSummary; state: 'failed' | 'skipped'; why: string }>();
  // A file's tests may judge a response another test of the file received (one getPet every test reads).
  const fileExchanges = new Map<string, Set<number>>();
  for (const test of tests) {
    const set = fileExchanges.get(test.file) ?? new Set<number>();
    for (const seq of test.exchanges ?? []) set.add(seq);
    fileExchanges.set(test.file, set);
  }
  const requirementOf = new Map(report.requirements.flatMap((r) => r.tests.map((t) => [t, r.id] as const)));
  const creates = loggedCreates(entries);
  for (const test of tests) {
    if (test.state !== 'passed') continue;
    const verdict = judgeTest(test, requirementOf.get(test) ?? '', bySeq, fileExchanges.get(test.file) ?? new Set(), stats, contract, {
      ...options,
      run: report.run,
      creates,
    });
    if (verdict) refused.set(test.id, { test, ...verdict });
  }
  for (const { test, why } of refused.values()) differences.push(`${test.name}: passed, but ${why}`);

  // (e) Requirements and the run, decided again from the re-judged outcomes.
  const rejudged: ConformanceReport = {
    ...report,
    requirements: report.requirements.map((r) => rejudgedRequirement(r, refused, findingDiffs.has(r.id) ? recomputed : undefined)),
  };
  const { requirementMismatches, verdict } = rederive(rejudged, catalog);
  differences.push(...requirementMismatches.map((m) => `${m} (re-judged from the log)`));
  if (verdict.overall !== report.verdict.overall) differences.push(`the run: states ${report.verdict.overall}, the log gives ${verdict.overall}`);
  return { differences, refusedTests: [...refused.values()].map((r) => r.test.name), verdict: verdict.overall, stats };
}

/** The requirement with its refused tests re-stated, and its findings recomputed where they differ. */
function rejudgedRequirement(
  requirement: RequirementResult,
  refused: ReadonlyMap<string, { state: 'failed' | 'skipped'; why: string }>,
  recomputed: ReadonlyMap<string, Finding[]> | undefined,
): RequirementResult {
  const tests = requirement.tests.map((t): TestSummary => {
    const r = refused.get(t.id);
    if (!r) return t;
    const { observed: _o, ...rest } = t;
    return r.state === 'failed'
      ? { ...rest, state: 'failed', failureKind: 'conformance' }
      : { ...rest, state: 'skipped', skipCode: 'precondition', skipReason: `not proven by the exchange log: ${r.why}` };
  });
  const fromTests = requirement.failures.filter((f) => f.origin === 'test');
  const failures: FailureDetail[] = recomputed
    ? [
        ...fromTests,
        ...findingFailures(
          requirement.id,
          [...recomputed].map(([id, findings]) => findingsOutcome(id, findings)),
        ),
      ]
    : requirement.failures;
  return { ...requirement, tests, failures };
}

function findingsOutcome(id: string, findings: readonly Finding[]): TestOutcome {
  return {
    id,
    name: id,
    file: '',
    state: 'passed',
    durationMs: 0,
    errors: [],
    meta: { requirementId: '', level: 'MUST', area: '', findings: [...findings], exchanges: [] },
  };
}

/** Which test sent each exchange. */
function ownerOf(tests: readonly TestSummary[]): Map<number, TestSummary> {
  const owner = new Map<number, TestSummary>();
  for (const test of tests) for (const seq of test.exchanges ?? []) owner.set(seq, test);
  return owner;
}

const testLabel = (test: TestSummary | undefined) => test?.name ?? 'an exchange no test sent';

/** rejudge as one line of `verify`: refused on any difference, naming the tests and requirements. */
export function rejudgeCheck(report: ConformanceReport, har: unknown, catalog: Catalog, contract: Contract, options: RejudgeOptions = {}): BundleCheckLine {
  const result = rejudge(report, har, catalog, contract, options);
  const { stats } = result;
  // A certified run logs every exchange whole: an entry marked summarised would hide it from the checks.
  if (stats.summarised > 0)
    result.differences.unshift(`${stats.summarised} entries of the log are marked summarised: a certified run logs every exchange whole`);
  if (result.differences.length === 0) {
    return {
      ok: true,
      name: 'rejudged',
      detail: `re-judged from ${HAR_NAME}: ${stats.entries} exchanges (${stats.checkedWhole} re-checked whole, ${stats.headersOnly} on their headers, a cut body), ${stats.judgments} judgments; every finding, test and verdict is the log's`,
    };
  }
  // The passes the log does not prove first: they are what a forger edits.
  const refusals = result.differences.filter((d) => d.includes(': passed, but '));
  const ordered = [...refusals, ...result.differences.filter((d) => !refusals.includes(d))];
  const shown = ordered.slice(0, 8).join('; ');
  const more = ordered.length > 8 ? `; and ${ordered.length - 8} more` : '';
  const refused =
    result.refusedTests.length > 0
      ? `The log does not prove: ${result.refusedTests.slice(0, 10).join(', ')}${result.refusedTests.length > 10 ? ', …' : ''}. `
      : '';
  return { ok: false, name: 'rejudged', detail: `${HAR_NAME} does not give what the report claims. ${refused}${shown}${more}.` };
}

const HAR_NAME = 'exchanges.har';

/** The shape of one line of verify (report-checks.ts's BundleCheck). */
interface BundleCheckLine {
  ok: boolean;
  name: string;
  detail: string;
}
