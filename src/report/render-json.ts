import type { ConformanceReport } from './report-types.ts';

/**
 * conformance.json, as described by spec/report.schema.json. Bodies are already text; a bigint that
 * slipped into the data is written as its decimal string rather than crashing the reporter or rounding.
 */
export function renderJson(report: ConformanceReport): string {
  return `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2)}\n`;
}
