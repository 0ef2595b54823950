import { describe, expect, it } from 'vitest';
import { columnHistories } from '../../src/matrix/history.ts';
import { CHANGE_CLASSES, compareReports, emptyChangeLists } from '../../src/report/compare-reports.ts';
import { input } from '../support/matrix-runs.ts';

describe('the lists of changes a comparison starts from', () => {
  it('are one fresh, empty list per class, in the order a comparison lists them', () => {
    const first = emptyChangeLists<string>();
    expect(Object.keys(first)).toEqual([...CHANGE_CLASSES]);
    for (const key of CHANGE_CLASSES) expect(first[key]).toEqual([]);
    first.fixed.push('AUTH-001');
    // A list shared between calls would carry one comparison's changes into the next.
    expect(emptyChangeLists<string>().fixed).toEqual([]);
  });

  it('are where both compare and the matrix history start, so their JSON keys come in one order', () => {
    const before = input('a', { failing: ['AUTH-002'] }, { implementation: 'alpha@1.0.0' });
    const after = input('b', { failing: ['LIM-001'] }, { implementation: 'alpha@1.1.0' });
    const comparison = compareReports(before.report, after.report);
    expect(Object.keys(comparison)).toEqual(['before', 'after', ...CHANGE_CLASSES, 'regressed', 'runsDiffer']);
    expect(comparison.newlyFailing.map((c) => c.id)).toEqual(['LIM-001']);
    expect(comparison.fixed.map((c) => c.id)).toEqual(['AUTH-002']);
    const column = (key: string, version: string) => ({ key, version, trust: 'verified', name: 'alpha', signer: 's' }) as never;
    const history = columnHistories([
      { column: column('c1', '1.0.0'), report: before.report },
      { column: column('c2', '1.1.0'), report: after.report },
    ]).columns.get('c2');
    expect(Object.keys(history ?? {}).filter((key) => (CHANGE_CLASSES as readonly string[]).includes(key))).toEqual([...CHANGE_CLASSES]);
    expect(history?.newlyFailing).toEqual(['LIM-001']);
    expect(history?.fixed).toEqual(['AUTH-002']);
  });
});
