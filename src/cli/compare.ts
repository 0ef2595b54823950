import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { HarnessError } from '../errors.ts';
import { type ConformanceReport, failureLine } from '../report/index.ts';

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
    newlyFailing: [],
    fixed: [],
    newlyUntested: [],
    newlyTested: [],
    reasonChanged: [],
    otherChanges: [],
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

function differLine(comparison: Comparison): string | undefined {
  if (comparison.runsDiffer.length === 0) return undefined;
  return `warning: the runs differ (${comparison.runsDiffer.join('; ')}): a change may come from that, not from the implementation`;
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

const SECTIONS: ReadonlyArray<[keyof Comparison, string]> = [
  ['newlyFailing', 'Newly failing'],
  ['newlyUntested', 'Newly untested'],
  ['reasonChanged', 'Failing for another reason'],
  ['fixed', 'Fixed'],
  ['newlyTested', 'Newly tested'],
  ['otherChanges', 'Other changes'],
];

export function formatComparison(comparison: Comparison, format: 'text' | 'markdown' | 'json'): string {
  if (format === 'json') return `${JSON.stringify(comparison, null, 2)}\n`;
  const { before, after } = comparison;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const delta = (n: number) => (n >= 0 ? `+${n}` : String(n));
  const head = `${before.verdict} → ${after.verdict}; requests ${before.requests} → ${after.requests} (${delta(after.requests - before.requests)}); wall time ${seconds(before.wallMs)} → ${seconds(after.wallMs)}`;
  const lines: string[] = [];
  if (format === 'markdown') {
    lines.push(`## Conformance: ${comparison.regressed ? 'regressed' : 'no regression'}`, '', head, '');
    const differ = differLine(comparison);
    if (differ) lines.push(`> ${differ}`, '');
    for (const [key, title] of SECTIONS) {
      const changes = comparison[key] as Change[];
      if (changes.length === 0) continue;
      lines.push(`### ${title}`, '', '| requirement | level | before | after | detail |', '|---|---|---|---|---|');
      for (const c of changes)
        lines.push(`| ${c.id} | ${c.level} | ${c.before} | ${c.after} | ${(c.detail ?? '').replaceAll('|', '\\|').replaceAll('\n', ' ')} |`);
      lines.push('');
    }
    return `${lines.join('\n')}\n`;
  }
  lines.push(`${comparison.regressed ? 'REGRESSED' : 'no regression'}: ${head}`);
  const differ = differLine(comparison);
  if (differ) lines.push(differ);
  for (const [key, title] of SECTIONS) {
    const changes = comparison[key] as Change[];
    if (changes.length === 0) continue;
    lines.push('', `${title}:`);
    for (const c of changes) lines.push(`  ${c.id} ${c.level} ${c.before} → ${c.after}${c.detail ? `: ${c.detail}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

export const COMPARE_USAGE = `Usage: animal-store-conformance compare <before.json> <after.json> [--format text|markdown|json]

Compares two conformance.json reports of the same interface version: requirements newly failing,
fixed, newly untested, failing for another reason, and the change in requests and wall time.
Exit 1 when anything regressed (a new failure, a MUST no longer tested, a worse overall verdict),
0 otherwise, 2 when the reports cannot be compared.`;

/** `compare` as the command line runs it: returns the exit code. */
export function runCompare(argv: readonly string[], log: (line: string) => void): number {
  // --help anywhere answers, whatever else the line holds.
  if (argv.includes('--help') || argv.includes('-h')) {
    log(COMPARE_USAGE);
    return 0;
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { format: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      log(COMPARE_USAGE);
      return 0;
    }
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'markdown' && format !== 'json')
      throw new HarnessError('ERR_CONFIG', `--format must be text, markdown or json; got "${format}"`);
    if (positionals.length !== 2) throw new HarnessError('ERR_CONFIG', `compare needs two reports, before and after; got ${positionals.length}`);
    const [before, after] = positionals.map(readReport) as [ConformanceReport, ConformanceReport];
    const comparison = compareReports(before, after);
    log(formatComparison(comparison, format).trimEnd());
    return comparison.regressed ? 1 : 0;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    log(`animal-store-conformance compare: ${message}`);
    return 2;
  }
}

function readReport(path: string): ConformanceReport {
  let report: ConformanceReport;
  try {
    report = JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
  } catch (error) {
    throw new HarnessError('ERR_CONFIG', `compare: cannot read ${path}: ${(error as Error).message}`);
  }
  if ((report as { format?: string }).format !== 'animal-store-conformance-report')
    throw new HarnessError('ERR_CONFIG', `compare: ${path} is not a conformance.json report`);
  return report;
}
