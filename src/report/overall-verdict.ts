import type { DeviationNote, HarnessProblem, RequirementResult, Verdict, VerdictScope } from './report-types.ts';
import type { RunInfo } from './run-info.ts';
import { acceptBehindBaseline, scopeOf } from './untested-scope.ts';

const LABELS = {
  conformant: 'CONFORMANT',
  'not-conformant': 'NOT CONFORMANT',
  knownDeviations: 'NOT CONFORMANT (known deviations only)',
  partial: 'PARTIAL',
  incomplete: 'INCOMPLETE',
} as const;

/**
 * Exit code of the CLI for a verdict: 0 conformant, 1 not conformant, 2 the run could not be completed.
 * A partial run exits 0, or 1 when the run requires completeness (--require-complete, --certify).
 */
export function exitCodeOf(overall: Verdict['overall'], requireComplete = false): 0 | 1 | 2 {
  if (overall === 'conformant') return 0;
  if (overall === 'partial') return requireComplete ? 1 : 0;
  return overall === 'not-conformant' ? 1 : 2;
}

/**
 * The run's verdict. A broken MUST (or SHOULD under --strict) decides it, even when the run was also
 * incomplete: a violation seen is a violation. Then a run that could not be completed is INCOMPLETE; then
 * a run that left any MUST in scope untested, for whatever reason, is PARTIAL. CONFORMANT only when every
 * MUST in scope (and SHOULD under --strict) was tested and passed.
 */
export function decideOverall(
  requirements: readonly RequirementResult[],
  problems: readonly HarnessProblem[],
  deviations: readonly DeviationNote[],
  run: RunInfo,
): Verdict {
  const notes = scopeNotes(run, deviations);
  const scope = scopeOf(requirements, run.strict);
  const make = (overall: Verdict['overall'], label: string, why: string, knownDeviationsOnly = false, gatePasses = false): Verdict => ({
    overall,
    label,
    why: why.endsWith('.') ? why : `${why}.`,
    exitCode: gatePasses ? 0 : exitCodeOf(overall, run.requireComplete === true),
    knownDeviationsOnly,
    scope,
    notes,
  });
  const failing = requirements.filter((r) => r.verdict === 'fail');
  const declared = requirements.filter((r) => r.verdict === 'deviation' && r.deviationOf === 'fail');
  const problem = problemSentence(problems) ?? nothingRan(requirements, run);

  if (failing.length > 0) {
    const parts = [failingSentence(failing)];
    if (declared.length > 0) parts.push(`${count(declared.length, 'more requirement deviates', 'more requirements deviate')} as declared`);
    if (problem) parts.push(`the run was also incomplete (${problem})`);
    else if (scope.untested.length > 0) parts.push(testedSentence(scope));
    return make('not-conformant', LABELS['not-conformant'], parts.join('; '));
  }
  if (declared.length > 0) {
    const why = `Not conformant (known deviations only): ${count(declared.length, 'requirement deviates', 'requirements deviate')} as the implementer declared: ${listIds(declared)}`;
    // Known failures of the CI baseline do not fail the gate while they apply; declared deviations do.
    const fromBaseline = new Set(deviations.filter((d) => d.source === 'baseline').map((d) => d.id));
    const baselined = new Set(declared.filter((r) => fromBaseline.has(r.id)).map((r) => r.id));
    // What a baselined failure kept from being tested is accepted with it; anything else untested still counts.
    const judged = acceptBehindBaseline(scope, baselined);
    const accepted = judged.untested.filter((u) => u.acceptedBy !== undefined);
    const unaccepted = judged.untested.filter((u) => u.acceptedBy === undefined);
    const gatePasses = !problem && declared.every((r) => fromBaseline.has(r.id)) && !(run.requireComplete === true && unaccepted.length > 0);
    const behind =
      accepted.length > 0
        ? `; ${count(accepted.length, 'requirement untested behind them is', 'requirements untested behind them are')} accepted with them (${listIds(accepted)})`
        : '';
    const gate = gatePasses ? `; each is a known failure of the baseline${behind}, so the gate passes (exit 0)` : '';
    const verdict = make('not-conformant', LABELS.knownDeviations, problem ? `${why}; the run was also incomplete` : `${why}${gate}`, true, gatePasses);
    return { ...verdict, scope: judged };
  }
  if (problem) return make('incomplete', LABELS.incomplete, `The run could not be completed: ${problem}`);
  if (scope.untested.length > 0) return make('partial', LABELS.partial, partialSentence(scope, requirements));
  return make('conformant', LABELS.conformant, conformantSentence(requirements, scope));
}

/** The harness problems that kept the run from completing, as one clause. */
function problemSentence(problems: readonly HarnessProblem[]): string | undefined {
  const first = problems[0];
  if (!first) return undefined;
  if (problems.length === 1) return `${first.code}: ${first.message}`;
  return `${problems.length} harness errors (first: ${first.code}: ${first.message})`;
}

/** A run that judged nothing though nothing was left out on purpose proved nothing: the suite did not run. */
function nothingRan(requirements: readonly RequirementResult[], run: RunInfo): string | undefined {
  if ((run.only?.length ?? 0) > 0 || run.shard) return undefined;
  if (requirements.some((r) => r.verdict !== 'not-covered' && r.untestedCode !== 'no-test')) return undefined;
  return 'no requirement was tested: the suites did not run';
}

/** "N of M MUST requirements in scope were tested". */
export function testedSentence(scope: VerdictScope): string {
  const must = `${scope.mustTested} of ${scope.mustInScope} MUST requirements in scope were tested`;
  if (scope.shouldInScope === undefined) return must;
  return `${must}, ${scope.shouldTested ?? 0} of ${scope.shouldInScope} SHOULD (--strict)`;
}

function partialSentence(scope: VerdictScope, requirements: readonly RequirementResult[]): string {
  const parts = [`Nothing failed, but only ${testedSentence(scope)}`, `untested: ${listIds(scope.untested)}`];
  parts.push(...warningClauses(requirements.filter((r) => r.verdict === 'warn')));
  return parts.join('; ');
}

/** Warnings, and apart from them the advisories (a standard's requirements, which never fail a run). */
function warningClauses(warned: readonly RequirementResult[]): string[] {
  const advisories = warned.filter((r) => r.level === 'ADVISORY');
  const warnings = warned.filter((r) => r.level !== 'ADVISORY');
  const clauses: string[] = [];
  if (warnings.length > 0) clauses.push(`${count(warnings.length, 'warning', 'warnings')} (${listIds(warnings)})`);
  if (advisories.length > 0) clauses.push(`${count(advisories.length, 'advisory', 'advisories')} beyond the interface (${listIds(advisories)})`);
  return clauses;
}

function failingSentence(failing: readonly RequirementResult[]): string {
  const should = failing.filter((r) => r.level !== 'MUST').length;
  if (should === 0) return `${count(failing.length, 'MUST requirement fails', 'MUST requirements fail')}: ${listIds(failing)}`;
  const must = failing.length - should;
  return `${count(failing.length, 'requirement fails', 'requirements fail')} (${must} MUST, ${should} SHOULD under --strict): ${listIds(failing)}`;
}

function conformantSentence(requirements: readonly RequirementResult[], scope: VerdictScope): string {
  const parts = [`All ${scope.mustInScope} MUST requirements in scope were tested and pass`];
  parts.push(...warningClauses(requirements.filter((r) => r.verdict === 'warn' || (r.verdict === 'deviation' && r.deviationOf === 'warn'))));
  const untestedOthers = requirements.filter((r) => r.level !== 'MUST' && (r.verdict === 'skipped' || r.verdict === 'partial')).length;
  if (untestedOthers > 0) parts.push(`${count(untestedOthers, 'SHOULD/MAY/ADVISORY requirement', 'SHOULD/MAY/ADVISORY requirements')} untested`);
  const outOfScope = requirements.filter((r) => r.verdict === 'not-covered');
  const needPlan = outOfScope.filter((r) => r.needs === 'plan').length;
  const notShown = outOfScope.length - needPlan;
  if (notShown > 0) parts.push(`${notShown} out of scope (the interface does not show them)`);
  if (needPlan > 0) parts.push(`${count(needPlan, 'requirement needs', 'requirements need')} --plan to be tested`);
  return parts.join('; ');
}

function scopeNotes(run: RunInfo, deviations: readonly DeviationNote[]): string[] {
  const notes: string[] = [];
  if (run.only && run.only.length > 0) notes.push(`Only ${run.only.join(', ')} selected (--only); other requirements were skipped.`);
  if (run.readOnly) notes.push('Read-only mode: requirements that need createPet were skipped.');
  if (!run.exhaust) notes.push('Rate-limit exhaustion opted out: the 429 requirements were skipped.');
  if (run.shard) notes.push(`This is shard ${run.shard} of a sharded run; merge the shards for the whole verdict.`);
  for (const d of deviations) {
    if (d.status === 'requirement-passes')
      notes.push(`Deviation listed for ${d.id}, but the requirement passes: remove it from the expected deviations (fixed).`);
    if (d.status === 'not-tested') notes.push(`Deviation listed for ${d.id}, but the requirement was not tested in this run.`);
    if (d.status === 'unknown-requirement') notes.push(`Deviation listed for ${d.id}, which is not a requirement of the catalog.`);
    if (d.status === 'expired')
      notes.push(`Known failure ${d.id} was accepted until ${d.expires ?? '?'}: the entry has expired, so the failure counts. Fix it or give it a new date.`);
    if (d.status === 'different-failure') notes.push(`Known failure ${d.id} is listed, but it now fails differently: the new failure counts.`);
  }
  return notes;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

const LISTED_IDS = 8;

export function listIds(requirements: ReadonlyArray<{ id: string }>): string {
  const ids = requirements.map((r) => r.id);
  if (ids.length <= LISTED_IDS) return ids.join(', ');
  return `${ids.slice(0, LISTED_IDS).join(', ')} and ${ids.length - LISTED_IDS} more`;
}
