import type { ConformanceReport, RequirementResult } from '../report/index.ts';

const MARK: Record<RequirementResult['verdict'], string> = {
  pass: 'pass',
  fail: 'FAIL',
  warn: 'warn',
  deviation: 'dev ',
  skipped: 'skip',
  'not-covered': 'n/c ',
};

/** The console's account of a run: failures first with a curl line each, then the verdict. */
export function formatSummary(report: ConformanceReport, reportFiles: readonly string[]): string {
  const lines: string[] = [];
  const { run, verdict, counts, traffic } = report;
  const target = run.target.embedded ? `${run.target.url} (embedded reference)` : run.target.url;
  lines.push('', `Animal Store conformance — ${target}`, `profile ${run.profile}, seed ${run.seed}, ${traffic.requestCount} requests`);
  for (const level of ['MUST', 'SHOULD', 'MAY'] as const) {
    const row = counts[level];
    const parts = Object.entries(row).filter(([, n]) => n > 0).map(([v, n]) => `${n} ${v}`);
    if (parts.length > 0) lines.push(`  ${level.padEnd(6)} ${parts.join(', ')}`);
  }
  const shown = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn' || r.verdict === 'deviation');
  for (const requirement of shown) {
    lines.push('', `${MARK[requirement.verdict]} ${requirement.id} ${requirement.level} ${requirement.text}`);
    const failure = requirement.failures[0];
    if (!failure) continue;
    if (failure.expected && failure.actual) lines.push(`     expected ${failure.expected}`, `     got      ${failure.actual}`);
    else lines.push(`     ${failure.message}`);
    if (failure.property?.counterexample) lines.push(`     counterexample ${failure.property.counterexample} (seed ${failure.property.seed})`);
    if (failure.curl) lines.push(`     Reproduce with: ${failure.curl}`);
  }
  for (const problem of report.harnessErrors.slice(0, 5)) lines.push('', `harness ${problem.code}: ${problem.message}`);
  lines.push('', `${verdict.label}: ${verdict.why}`);
  for (const note of verdict.notes) lines.push(`  note: ${note}`);
  if (reportFiles.length > 0) lines.push(`Reports: ${reportFiles.join(', ')}`);
  lines.push(`Replay: ${run.command}`);
  return lines.join('\n');
}
