import type { ConformanceReport } from '../../src/report/report-types.ts';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function fmt(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a';
}

export function seconds(ms: number): string {
  return `${fmt(ms / 1000, 1)} s`;
}

/** Generated cases: the sum of property numRuns where the report exposes them, else one per test. */
export function generatedCases(report: ConformanceReport): { cases: number; tests: number; properties: number } {
  const tests = report.requirements.flatMap((requirement) => requirement.tests);
  const unique = new Map(tests.map((test) => [test.id, test]));
  let cases = 0;
  let properties = 0;
  for (const test of unique.values()) {
    if (test.property) {
      properties += 1;
      cases += test.property.numRuns;
    } else if (test.state !== 'skipped') {
      cases += 1;
    }
  }
  return { cases, tests: unique.size, properties };
}
