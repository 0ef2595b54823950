import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { HarnessError } from '../errors.ts';
import { type Change, type Comparison, compareReports } from '../report/compare-reports.ts';
import type { ConformanceReport } from '../report/index.ts';

export { type Change, type Comparison, type RunSide, compareReports, runDifferences } from '../report/compare-reports.ts';

function differLine(comparison: Comparison): string | undefined {
  if (comparison.runsDiffer.length === 0) return undefined;
  return `warning: the runs differ (${comparison.runsDiffer.join('; ')}): a change may come from that, not from the implementation`;
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
