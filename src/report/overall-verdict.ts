import type { DeviationNote, HarnessProblem, RequirementResult, Verdict } from './model.ts';
import { isBudgetSkip } from './requirement-verdict.ts';
import type { RunInfo } from './run-info.ts';

const LABELS = {
  conformant: 'CONFORMANT',
  'not-conformant': 'NOT CONFORMANT',
  knownDeviations: 'NOT CONFORMANT (known deviations only)',
  incomplete: 'INCOMPLETE',
} as const;

/** Exit code of the CLI for a verdict: 0 conformant, 1 not conformant, 2 the run could not be completed. */
export function exitCodeOf(overall: Verdict['overall']): 0 | 1 | 2 {
  return overall === 'conformant' ? 0 : overall === 'not-conformant' ? 1 : 2;
}

/**
 * The run's verdict. A broken MUST (or SHOULD under --strict) decides it, even when the run was also
 * incomplete: a violation seen is a violation. Otherwise an incomplete run is never called conformant.
 */
export function decideOverall(
  requirements: readonly RequirementResult[],
  problems: readonly HarnessProblem[],
  deviations: readonly DeviationNote[],
  run: RunInfo,
): Verdict {
  const notes = scopeNotes(run, deviations);
  const failing = requirements.filter((r) => r.verdict === 'fail');
  const declared = requirements.filter((r) => r.verdict === 'deviation' && r.deviationOf === 'fail');
  const gaps = incompleteness(requirements, problems);

  if (failing.length > 0) {
    const parts = [failingSentence(failing)];
    if (declared.length > 0) parts.push(`${count(declared.length, 'more requirement deviates', 'more requirements deviate')} as declared`);
    if (gaps.length > 0) parts.push(`the run was also incomplete (${gaps.join('; ')})`);
    return verdict('not-conformant', LABELS['not-conformant'], parts.join('; '), false, notes);
  }
  if (declared.length > 0) {
    const why = `Not conformant (known deviations only): ${count(declared.length, 'requirement deviates', 'requirements deviate')} as the implementer declared: ${listIds(declared)}`;
    return verdict('not-conformant', LABELS.knownDeviations, gaps.length > 0 ? `${why}; the run was also incomplete` : why, true, notes);
  }
  if (gaps.length > 0) return verdict('incomplete', LABELS.incomplete, `The run is incomplete: ${gaps.join('; ')}`, false, notes);
  return verdict('conformant', LABELS.conformant, conformantSentence(requirements), false, notes);
}

function verdict(overall: Verdict['overall'], label: string, why: string, knownDeviationsOnly: boolean, notes: string[]): Verdict {
  return { overall, label, why: why.endsWith('.') ? why : `${why}.`, exitCode: exitCodeOf(overall), knownDeviationsOnly, notes };
}

/** Why the run cannot vouch for the target, one clause per cause. */
function incompleteness(requirements: readonly RequirementResult[], problems: readonly HarnessProblem[]): string[] {
  const out: string[] = [];
  if (problems.length === 1) out.push(`${problems[0]?.code}: ${problems[0]?.message}`);
  if (problems.length > 1) out.push(`${problems.length} harness errors (first: ${problems[0]?.code}: ${problems[0]?.message})`);
  const mustWithoutTest = requirements.filter((r) => r.level === 'MUST' && r.coverage === 'tested' && r.verdict === 'not-covered');
  if (mustWithoutTest.length > 0) out.push(`${count(mustWithoutTest.length, 'MUST requirement', 'MUST requirements')} had no test (${listIds(mustWithoutTest)})`);
  const budget = requirements.filter((r) => r.level === 'MUST' && r.verdict === 'skipped' && isBudgetSkip(r.reason));
  if (budget.length > 0) out.push(`the request budget ran out before ${count(budget.length, 'MUST requirement', 'MUST requirements')} ran (${listIds(budget)})`);
  const judged = requirements.filter((r) => r.verdict !== 'skipped' && r.verdict !== 'not-covered');
  if (judged.length === 0 && problems.length === 0) out.push('no requirement was tested');
  return out;
}

function failingSentence(failing: readonly RequirementResult[]): string {
  const should = failing.filter((r) => r.level !== 'MUST').length;
  if (should === 0) return `${count(failing.length, 'MUST requirement fails', 'MUST requirements fail')}: ${listIds(failing)}`;
  const must = failing.length - should;
  return `${count(failing.length, 'requirement fails', 'requirements fail')} (${must} MUST, ${should} SHOULD under --strict): ${listIds(failing)}`;
}

function conformantSentence(requirements: readonly RequirementResult[]): string {
  const passing = requirements.filter((r) => r.level === 'MUST' && r.verdict === 'pass').length;
  const head =
    passing === 0 ? 'No MUST requirement was tested' : passing === 1 ? 'The one tested MUST requirement passes' : `All ${passing} tested MUST requirements pass`;
  const parts = [head];
  const warnings = requirements.filter((r) => r.verdict === 'warn' || (r.verdict === 'deviation' && r.deviationOf === 'warn'));
  if (warnings.length > 0) parts.push(`${count(warnings.length, 'warning', 'warnings')} (${listIds(warnings)})`);
  const skippedMust = requirements.filter((r) => r.level === 'MUST' && r.verdict === 'skipped').length;
  if (skippedMust > 0) parts.push(`${count(skippedMust, 'MUST requirement', 'MUST requirements')} skipped`);
  const notCovered = requirements.filter((r) => r.verdict === 'not-covered').length;
  if (notCovered > 0) parts.push(`${notCovered} not covered by the interface`);
  return parts.join('; ');
}

function scopeNotes(run: RunInfo, deviations: readonly DeviationNote[]): string[] {
  const notes: string[] = [];
  if (run.only && run.only.length > 0) notes.push(`Only ${run.only.join(', ')} selected (--only); other requirements were skipped.`);
  if (run.readOnly) notes.push('Read-only mode: requirements that need createPet were skipped.');
  if (!run.exhaust) notes.push('Rate-limit exhaustion opted out: the 429 requirements were skipped.');
  if (run.shard) notes.push(`This is shard ${run.shard} of a sharded run; merge the shards for the whole verdict.`);
  for (const d of deviations) {
    if (d.status === 'requirement-passes') notes.push(`Deviation listed for ${d.id}, but the requirement passes: remove it from the expected deviations.`);
    if (d.status === 'not-tested') notes.push(`Deviation listed for ${d.id}, but the requirement was not tested in this run.`);
    if (d.status === 'unknown-requirement') notes.push(`Deviation listed for ${d.id}, which is not a requirement of the catalog.`);
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
