import { shownText } from '../text/console-text.ts';
import { type GateDecision, gateDecision, gateLine } from './gate-reason.ts';
import { type ConformanceReport, type RequirementResult, dailyQuotaText, networkText, rootCauses, transportErrorsText } from '../report/index.ts';
import { listIds } from '../report/overall-verdict.ts';
import { frontHint, serverSignature } from '../report/front-signature.ts';

const MARK: Record<RequirementResult['verdict'], string> = {
  pass: 'pass',
  fail: 'FAIL',
  warn: 'warn',
  deviation: 'dev ',
  partial: 'part',
  skipped: 'skip',
  'not-covered': 'n/c ',
};

/**
 * The console's account of a run: failures first with a curl line each, then the verdict. Every piece a
 * target may have shaped (evidence, messages, counterexamples, curl lines) goes through shownText, so
 * it stays on its own line, escaped and cut; the sink (main) then escapes the block once more.
 */
export function formatSummary(report: ConformanceReport, reportFiles: readonly string[], decision: GateDecision = gateDecision(report)): string {
  const lines: string[] = [];
  const { run, verdict, counts, traffic } = report;
  const signature = serverSignature(report);
  const target = run.target.embedded ? `${run.target.url} (embedded reference)` : shownText(run.target.url);
  lines.push('', `Animal Store conformance — ${target}`, `profile ${run.profile}, seed ${run.seed}, ${traffic.requestCount} requests`);
  if (run.network) lines.push(`  ${shownText(networkText(run.network))}`);
  for (const level of ['MUST', 'SHOULD', 'MAY', 'ADVISORY'] as const) {
    const row = counts[level];
    if (!row) continue;
    const parts = Object.entries(row)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${n} ${v}`);
    if (parts.length > 0) lines.push(`  ${level.padEnd(8)} ${parts.join(', ')}`);
  }
  if (traffic.dailyQuota) lines.push(`  ${dailyQuotaText(traffic.dailyQuota)}`);
  if (traffic.transportErrors > 0) lines.push(`  ${transportErrorsText(traffic.transportErrors)}`);
  const broken = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'deviation');
  // Advisories (a standard's requirements beyond the interface) come last, apart: they never fail a run.
  const advisories = broken.filter((r) => r.level === 'ADVISORY');
  // Failures before warnings: the first finding shown is the gravest (a MUST broken), whatever the catalog order.
  const interfaceOnes = broken.filter((r) => r.level !== 'ADVISORY');
  const shown = [...interfaceOnes.filter((r) => r.verdict === 'fail'), ...interfaceOnes.filter((r) => r.verdict !== 'fail'), ...advisories];
  const sameCause = causeFollowers(report);
  for (const requirement of shown) {
    if (requirement.verdict === 'fail' && sameCause.followers.has(requirement.id)) continue;
    if (requirement === advisories[0]) lines.push('', 'Advisories (what a standard asks beyond the interface; they never fail a run, not even with --strict):');
    lines.push('', `${MARK[requirement.verdict]} ${requirement.id} ${requirement.level} ${requirement.text}`);
    const also = requirement.verdict === 'fail' ? sameCause.leaders.get(requirement.id) : undefined;
    if (also) lines.push(`     the same probable cause (${shownText(also.summary)}) also fails ${listIds(also.ids.map((id) => ({ id })))}: see the report`);
    const failure = requirement.failures[0];
    if (!failure) continue;
    if (failure.expected && failure.actual) lines.push(`     expected ${shownText(failure.expected)}`, `     got      ${shownText(failure.actual)}`);
    else lines.push(`     ${shownText(failure.message)}`);
    if (failure.property?.counterexample) lines.push(`     counterexample ${shownText(failure.property.counterexample)} (seed ${failure.property.seed})`);
    if (failure.curl) lines.push(`     Reproduce with: ${shownText(failure.curl, CURL_CHARS)}`);
    const front = requirement.verdict === 'deviation' ? undefined : frontHint(failure.evidence.at(-1), signature);
    if (front) lines.push(`     ${shownText(front, 1000)}`);
  }
  for (const problem of report.harnessErrors.slice(0, 5)) lines.push('', `harness ${shownText(problem.code, 40)}: ${shownText(problem.message)}`);
  if (verdict.overall !== 'incomplete' && verdict.scope.untested.length > 0) lines.push('', ...untestedLines(report));
  lines.push('', `${verdict.label}: ${shownText(verdict.why)}`);
  lines.push(shownText(gateLine(decision), 2000));
  for (const note of verdict.notes) lines.push(`  note: ${shownText(note)}`);
  if (reportFiles.length > 0) lines.push(`Reports: ${reportFiles.join(', ')}`);
  lines.push(`Replay: ${shownText(run.command, CURL_CHARS)}`);
  return lines.join('\n');
}

/**
 * One defect is one block: of the failing requirements a probable cause explains (as the HTML groups
 * them), the first is shown in full with the others named under it; the followers get no block of their own.
 */
function causeFollowers(report: ConformanceReport): { leaders: Map<string, { summary: string; ids: string[] }>; followers: Set<string> } {
  const leaders = new Map<string, { summary: string; ids: string[] }>();
  const followers = new Set<string>();
  for (const cause of rootCauses(report)) {
    const [first, ...rest] = cause.requirements.filter((r) => r.verdict === 'fail').map((r) => r.id);
    if (first === undefined || rest.length === 0) continue;
    leaders.set(first, { summary: cause.summary, ids: rest });
    for (const id of rest) followers.add(id);
  }
  return { leaders, followers };
}

const LISTED_UNTESTED = 12;
/** A curl line or a command is worth more characters than a quote: it is copied and run. */
const CURL_CHARS = 4000;

/** Each untested requirement in scope with why and how to cover it; the rest counted. */
function untestedLines(report: ConformanceReport): string[] {
  const { scope } = report.verdict;
  const lines = [`Untested (${scope.mustTested} of ${scope.mustInScope} MUST requirements in scope were tested):`];
  for (const u of scope.untested.slice(0, LISTED_UNTESTED)) {
    const accepted = u.acceptedBy ? ` (accepted with the baseline entry ${u.acceptedBy})` : '';
    lines.push(`  ${u.id} ${u.level}${accepted}: ${shownText(u.reason)} — ${shownText(u.cover)}`);
  }
  if (scope.untested.length > LISTED_UNTESTED) lines.push(`  … and ${scope.untested.length - LISTED_UNTESTED} more (see the report)`);
  return lines;
}
