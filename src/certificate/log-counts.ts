import type { ConformanceReport, TestSummary } from '../report/report-types.ts';
import type { RecordedEntry } from './rejudge-har.ts';

/** (d) The log's entries in time order, inside the run's start and end. */
export function timingDifferences(report: ConformanceReport, entries: readonly RecordedEntry[]): string[] {
  const differences: string[] = [];
  const sorted = [...entries].sort((a, b) => a.seq - b.seq);
  for (let i = 1; i < sorted.length; i += 1) {
    const before = sorted[i - 1];
    const entry = sorted[i];
    if (before && entry && entry.startedAt < before.startedAt) {
      differences.push(`the log: #${entry.seq} starts before #${before.seq}, but the run numbers its exchanges in the order they were sent`);
      break;
    }
  }
  const start = Date.parse(report.run.startedAt);
  const end = Date.parse(report.run.endedAt);
  const first = sorted[0];
  const last = sorted.reduce((latest, e) => Math.max(latest, e.startedAt + e.durationMs), -Infinity);
  // The log's times are whole milliseconds; a response's duration is not.
  if (first && first.startedAt < start)
    differences.push(`the log: #${first.seq} starts at ${new Date(first.startedAt).toISOString()}, before the run (${report.run.startedAt})`);
  if (sorted.length > 0 && last > end + 1)
    differences.push(`the log: its last answer came at ${new Date(last).toISOString()}, after the run ended (${report.run.endedAt})`);
  return differences;
}

/** (d) The requests of each test and of the run, and the status coverage, are the log's. */
export function countDifferences(
  report: ConformanceReport,
  tests: readonly TestSummary[],
  entries: readonly RecordedEntry[],
  bySeq: ReadonlyMap<number, RecordedEntry>,
): string[] {
  const differences: string[] = [];
  const claimed = new Map<number, string>();
  for (const test of tests) {
    const own = test.exchanges ?? [];
    if (own.length !== test.requests) differences.push(`${test.name}: states ${test.requests} requests and names ${own.length} exchanges`);
    const missing = own.filter((seq) => !bySeq.has(seq));
    const missingShared = (test.shared ?? []).filter((seq) => !bySeq.has(seq));
    if (missing.length + missingShared.length > 0)
      differences.push(`${test.name}: its exchanges ${[...missing, ...missingShared].map((s) => `#${s}`).join(', ')} are not in the log`);
    for (const seq of own) {
      const other = claimed.get(seq);
      if (other !== undefined) differences.push(`#${seq} is claimed by two tests: ${other} and ${test.name}`);
      claimed.set(seq, test.name);
    }
  }
  const unclaimed = entries.filter((e) => !claimed.has(e.seq));
  if (unclaimed.length > 0)
    differences.push(
      `the log: ${unclaimed.length} entries no test sent (${unclaimed
        .slice(0, 5)
        .map((e) => `#${e.seq}`)
        .join(', ')})`,
    );
  const { traffic } = report;
  const actual = {
    requestCount: entries.length,
    transportErrors: entries.filter((e) => e.transportError).length,
    otherRequests: entries.filter((e) => e.operationId === undefined).length,
    retries: entries.reduce((sum, e) => sum + e.retries, 0),
  };
  for (const [name, value] of Object.entries(actual)) {
    const stated = traffic[name as keyof typeof actual];
    if (stated !== value) differences.push(`the run: states ${name} ${stated}, the log gives ${value}`);
  }
  // The status coverage counts every answered request of each operation.
  for (const row of report.coverage) {
    const seen = entries.filter((e) => e.operationId === row.operationId && !e.transportError).length;
    if (seen !== row.total) differences.push(`the run: states ${row.total} responses of ${row.operationId}, the log gives ${seen}`);
  }
  return differences;
}
