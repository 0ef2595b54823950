import { HarnessError } from '../errors.ts';
import { failureLine } from './failure-evidence.ts';
import type { ConformanceReport } from './report-types.ts';

/*
 * The comparison of two reports, requirement by requirement: pure, shared by `compare` (the command) and
 * the conformance matrix (its history of one implementation across versions), so both say the same.
 */

/** What changed between two reports of the same interface version, requirement by requirement. */
export interface Comparison {
  before: RunSide;
  after: RunSide;
  /** Failing now, not before: a regression. */
  newlyFailing: Change[];
  /** Failing before, passing now. */
  fixed: Change[];
  /** Tested before (pass or fail), untested now: a MUST among them is a regression. */
  newlyUntested: Change[];
  /** Untested before, tested now. */
  newlyTested: Change[];
  /** Failing in both, for another reason. */
  reasonChanged: Change[];
  /** Every other change of verdict (warn ↔ pass, deviation, …). */
  otherChanges: Change[];
  regressed: boolean;
  /** What the two runs did not share (target, profile, plan…): a change may come from that, not the implementation. */
  runsDiffer: string[];
}

export interface RunSide {
  verdict: string;
  requests: number;
  wallMs: number;
  seed: number;
  profile: string;
}

export interface Change {
  id: string;
  level: string;
  before: string;
  after: string;
  /** The first failure's one line, or the untested reason. */
  detail?: string;
}

/** The classes a change of verdict falls in, in the order a comparison lists them. */
export const CHANGE_CLASSES = ['newlyFailing', 'fixed', 'newlyUntested', 'newlyTested', 'reasonChanged', 'otherChanges'] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];

/** One empty list per class of change: where a comparison, and the matrix's history of a column, start. */
export function emptyChangeLists<T>(): Record<ChangeClass, T[]> {
  return { newlyFailing: [], fixed: [], newlyUntested: [], newlyTested: [], reasonChanged: [], otherChanges: [] };
}

const TESTED = new Set(['pass', 'fail', 'warn', 'deviation']);
const VERDICT_RANK: Record<string, number> = { conformant: 0, partial: 1, incomplete: 2, 'not-conformant': 3 };

export function compareReports(before: ConformanceReport, after: ConformanceReport): Comparison {
  if (before.run.specSha256 !== after.run.specSha256) {
    throw new HarnessError(
      'ERR_CONFIG',
      `compare: the reports test different interface descriptions (${before.run.specVersion}, sha256 ${before.run.specSha256.slice(0, 12)}… vs ${after.run.specVersion}, sha256 ${after.run.specSha256.slice(0, 12)}…): their verdicts do not compare`,
    );
  }
  const earlier = new Map(before.requirements.map((r) => [r.id, r]));
  const result: Comparison = {
    before: sideOf(before),
    after: sideOf(after),
    ...emptyChangeLists<Change>(),
    regressed: false,
    runsDiffer: runDifferences(before, after),
  };
  for (const now of after.requirements) {
    const then = earlier.get(now.id);
    const was = then?.verdict ?? 'absent';
    const change: Change = { id: now.id, level: now.level, before: was, after: now.verdict };
    if (now.verdict === 'fail' && was !== 'fail') result.newlyFailing.push({ ...change, detail: failureLine(now) });
    else if (was === 'fail' && now.verdict === 'pass') result.fixed.push(change);
    else if (TESTED.has(was) && !TESTED.has(now.verdict)) result.newlyUntested.push({ ...change, detail: now.reason });
    else if (!TESTED.has(was) && TESTED.has(now.verdict)) result.newlyTested.push(change);
    else if (was === 'fail' && now.verdict === 'fail' && then && failureLine(then) !== failureLine(now)) {
      result.reasonChanged.push({ ...change, detail: `${failureLine(then)} → ${failureLine(now)}` });
    } else if (was !== now.verdict) result.otherChanges.push(change);
  }
  const worse = (VERDICT_RANK[after.verdict.overall] ?? 0) > (VERDICT_RANK[before.verdict.overall] ?? 0);
  result.regressed = worse || result.newlyFailing.length > 0 || result.newlyUntested.some((c) => c.level === 'MUST');
  return result;
}

function sideOf(report: ConformanceReport): RunSide {
  return {
    verdict: report.verdict.overall,
    requests: report.traffic.requestCount,
    wallMs: Math.max(0, Date.parse(report.run.endedAt) - Date.parse(report.run.startedAt)),
    seed: report.run.seed,
    profile: report.run.profile,
  };
}

/** The facts of a run that decide what its verdicts mean; a comparison across them compares unlike runs. */
export function runDifferences(before: ConformanceReport, after: ConformanceReport): string[] {
  const target = (r: ConformanceReport) => (r.run.target.embedded ? 'the embedded reference' : r.run.target.url);
  const facts: ReadonlyArray<[string, (r: ConformanceReport) => string]> = [
    ['target', target],
    ['profile', (r) => r.run.profile],
    ['plan', (r) => r.run.plan ?? 'none given'],
    ['strict', (r) => String(r.run.strict)],
    ['read-only', (r) => String(r.run.readOnly)],
    ['only', (r) => (r.run.only?.length ? r.run.only.join(',') : 'everything')],
  ];
  return facts.filter(([, of]) => of(before) !== of(after)).map(([name, of]) => `${name} ${of(before)} → ${of(after)}`);
}
