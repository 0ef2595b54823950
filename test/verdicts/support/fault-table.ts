import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultOutcome } from './fault-plan.ts';

/** Where the last fault-sensitivity table is written, beside the console output. */
export const FAULT_TABLE_PATH = join(tmpdir(), 'animal-store-fault-sensitivity.txt');

/**
 * The table fault → requirements that failed → requirements expected → OK/MISSED, in the order of FAULTS,
 * with a line per fault that never ran (its test failed before it had an outcome).
 */
export function formatFaultTable(faults: ReadonlyArray<{ name: string; detectedBy: readonly string[] }>, outcomes: readonly FaultOutcome[]): string {
  const byName = new Map(outcomes.map((o) => [o.fault, o]));
  const rows = faults.map((fault) => {
    const o = byName.get(fault.name);
    if (!o) return [fault.name, '(no outcome)', fault.detectedBy.join(','), 'NOT RUN', ''];
    const status = o.ok
      ? 'OK'
      : o.exitCode !== 1 && o.missed.length === 0
        ? `MISSED (exit ${o.exitCode ?? 'killed'}, ${o.overall})`
        : `MISSED ${o.missed.join(',')}`;
    return [o.fault, o.detecting.join(',') || '-', o.expected.join(','), status, `${(o.durationMs / 1000).toFixed(1)} s`];
  });
  const header = ['fault', 'detecting (failed)', 'expected (detectedBy)', 'result', 'time'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const ok = outcomes.filter((o) => o.ok).length;
  const summary = `${ok} of ${faults.length} faults detected; ${faults.length - ok} missed or not run`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), '', summary].join('\n');
}

export function writeFaultTable(table: string): string {
  writeFileSync(FAULT_TABLE_PATH, `${table}\n`);
  return FAULT_TABLE_PATH;
}
