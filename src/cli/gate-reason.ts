import type { ConformanceReport, UntestedRequirement } from '../report/report-types.ts';
import { listIds } from '../report/overall-verdict.ts';

/**
 * Why the gate passed or failed, in one line: which rule decided (a failure, an expired or outgrown
 * baseline entry, a declared deviation, require-complete and what was untested, INCOMPLETE and its
 * cause). The console, the job summary, the annotation and the Action's `gate-reason` output all say
 * this same line, so an exit 1 never has to be reverse-engineered from the verdict.
 */
export interface GateDecision {
  gate: 'pass' | 'fail';
  exitCode: number;
  reason: string;
}

export function gateDecision(report: ConformanceReport, exitCode = report.verdict.exitCode): GateDecision {
  const reason = exitCode === 0 ? passReason(report) : failReason(report, exitCode);
  return { gate: exitCode === 0 ? 'pass' : 'fail', exitCode, reason };
}

/** "Gate: fail (exit 1): …": the console's and the summary's form. */
export function gateLine(decision: GateDecision): string {
  return `Gate: ${decision.gate} (exit ${decision.exitCode}): ${decision.reason}`;
}

function passReason(report: ConformanceReport): string {
  const { verdict } = report;
  if (verdict.overall === 'conformant') return 'CONFORMANT: every MUST in scope was tested and passes';
  if (verdict.knownDeviationsOnly) {
    const known = report.requirements.filter((r) => r.verdict === 'deviation' && r.deviationOf === 'fail');
    const accepted = verdict.scope.untested.filter((u) => u.acceptedBy !== undefined);
    const behind = accepted.length > 0 ? `; ${accepted.length} untested behind them accepted with them (${listIds(accepted)})` : '';
    return `every failure is a known failure of the baseline (${listIds(known)})${behind}`;
  }
  const untested = must(verdict.scope.untested);
  return `nothing failed; ${untested.length} MUST untested (${listIds(untested)}) and require-complete is off`;
}

function failReason(report: ConformanceReport, exitCode: number): string {
  const { verdict, run } = report;
  if (verdict.overall === 'incomplete' || exitCode === 2) {
    const first = report.harnessErrors[0];
    return `INCOMPLETE: ${first ? `${first.code}: ${first.message}` : verdict.why}`;
  }
  const failing = report.requirements.filter((r) => r.verdict === 'fail');
  if (failing.length > 0) return failingReason(report, failing);
  const declared = report.requirements.filter((r) => r.verdict === 'deviation' && r.deviationOf === 'fail');
  const fromBaseline = new Set(report.deviations.filter((d) => d.source === 'baseline').map((d) => d.id));
  const notBaseline = declared.filter((r) => !fromBaseline.has(r.id));
  if (notBaseline.length > 0) return `declared deviations fail the gate (only baseline entries keep it green): ${listIds(notBaseline)} (--expected-deviations)`;
  const untested = verdict.scope.untested.filter((u) => u.acceptedBy === undefined);
  if (run.requireComplete === true && untested.length > 0) {
    const musts = must(untested);
    const shown = musts.length > 0 ? musts : untested;
    return `require-complete: ${shown.length} ${musts.length > 0 ? 'MUST' : 'requirements'} untested (${listIds(shown)}): ${causeOf(shown)}`;
  }
  return verdict.why.replace(/\.$/, '');
}

/** A failure decided it: name the failures the baseline does not cover, and why each listed one no longer covers. */
function failingReason(report: ConformanceReport, failing: ReadonlyArray<{ id: string; level: string }>): string {
  const notes = new Map(report.deviations.filter((d) => d.source === 'baseline').map((d) => [d.id, d]));
  const parts: string[] = [];
  const unlisted = failing.filter((r) => !notes.has(r.id));
  const expired = failing.filter((r) => notes.get(r.id)?.status === 'expired');
  const different = failing.filter((r) => notes.get(r.id)?.status === 'different-failure');
  const what = (n: number) => (n === 1 ? 'requirement fails' : 'requirements fail');
  if (unlisted.length > 0)
    parts.push(`${unlisted.length} ${what(unlisted.length)}${notes.size > 0 ? ' that the baseline does not list' : ''}: ${listIds(unlisted)}`);
  for (const r of expired) parts.push(`the baseline entry ${r.id} expired on ${notes.get(r.id)?.expires ?? '?'}, so its failure counts`);
  if (different.length > 0)
    parts.push(
      `${listIds(different)} now ${different.length === 1 ? 'fails' : 'fail'} differently from ${different.length === 1 ? 'its' : 'their'} baseline entry`,
    );
  return parts.join('; ');
}

function must(untested: readonly UntestedRequirement[]): UntestedRequirement[] {
  return untested.filter((u) => u.level === 'MUST');
}

/** The causes of what was untested, by code, most common first: "profile (3), precondition (1)". */
function causeOf(untested: readonly UntestedRequirement[]): string {
  const byCode = new Map<string, number>();
  for (const u of untested) byCode.set(u.code, (byCode.get(u.code) ?? 0) + 1);
  const codes = [...byCode].sort((a, b) => b[1] - a[1]);
  const first = untested.find((u) => u.code === codes[0]?.[0]);
  return `${codes.map(([code, n]) => `${code} (${n})`).join(', ')}; ${first?.cover ?? ''}`.replace(/; $/, '');
}
