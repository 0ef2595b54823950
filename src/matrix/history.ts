import { implementationKey } from './labels.ts';
import { type ChangeClass, compareReports, emptyChangeLists } from '../report/compare-reports.ts';
import type { ConformanceReport } from '../report/report-types.ts';
import type { CellChange, ColumnHistory, MatrixColumn } from './matrix-types.ts';

export interface Histories {
  /** By column key: what changed since the previous version of the same implementation. */
  columns: Map<string, ColumnHistory>;
  /** By column key, then requirement id: the cell's change. */
  changes: Map<string, Map<string, CellChange>>;
}

/** compare's classes, in the words of a cell. */
const CLASSES: ReadonlyArray<[ChangeClass, CellChange]> = [
  ['newlyFailing', 'newly-failing'],
  ['fixed', 'fixed'],
  ['newlyUntested', 'newly-untested'],
  ['newlyTested', 'newly-tested'],
  ['reasonChanged', 'reason-changed'],
  ['otherChanges', 'changed'],
];

/**
 * Each version of an implementation against the one before it, with the same comparison `compare` makes
 * (compareReports): the columns come ordered oldest first within an implementation, and a not-verified
 * column is never compared with anything.
 */
export function columnHistories(entries: ReadonlyArray<{ column: MatrixColumn; report: ConformanceReport }>): Histories {
  const result: Histories = { columns: new Map(), changes: new Map() };
  const previous = new Map<string, { column: MatrixColumn; report: ConformanceReport }>();
  for (const entry of entries) {
    if (entry.column.trust === 'not-verified') continue;
    const before = previous.get(implementationKey(entry.column));
    previous.set(implementationKey(entry.column), entry);
    if (!before) continue;
    const comparison = compareReports(before.report, entry.report);
    const history: ColumnHistory = {
      since: before.column.key,
      ...(before.column.version !== undefined ? { sinceVersion: before.column.version } : {}),
      regressed: comparison.regressed,
      ...emptyChangeLists<string>(),
    };
    const cells = new Map<string, CellChange>();
    for (const [key, change] of CLASSES) {
      for (const c of comparison[key]) {
        history[key].push(c.id);
        cells.set(c.id, change);
      }
    }
    result.columns.set(entry.column.key, history);
    result.changes.set(entry.column.key, cells);
  }
  return result;
}
