import { describe, expect, it } from 'vitest';
import { buildMatrix, compareVersions, statusOf } from '../../src/matrix/build-matrix.ts';
import type { MatrixInput } from '../../src/matrix/matrix-types.ts';
import { compareReports } from '../../src/report/compare-reports.ts';
import { input } from '../support/matrix-runs.ts';

const AT = '2026-01-01T00:00:00.000Z';

/** Five different implementations: two clean, three failing in overlapping places. */
function five(): MatrixInput[] {
  return [
    input('a', { failing: ['AUTH-002', 'LIM-001'] }, { implementation: 'alpha@1.0.0' }),
    input('b', {}, { implementation: 'beta@2.0.0' }),
    input('c', { failing: ['AUTH-002'], skipped: ['RATE-007'] }, { implementation: 'gamma@0.3.0' }),
    input('d', { failing: ['AUTH-009'] }, { implementation: 'delta@1.0.0', trust: 'unsigned-bundle' }),
    input('e', { failing: ['AUTH-002', 'STA-010'], deviations: [{ id: 'STA-010', reason: 'planned' }] }, { implementation: 'epsilon@5.0.0' }),
  ];
}

describe('buildMatrix', () => {
  it('every cell is the verdict its own report gives that requirement, nothing else', () => {
    const inputs = five();
    const matrix = buildMatrix(inputs, { generatedAt: AT });
    expect(matrix.implementations).toHaveLength(5);
    for (const column of matrix.implementations) {
      const report = inputs.find((i) => i.source === column.source)?.report;
      expect(report).toBeDefined();
      for (const row of matrix.requirements) {
        const cell = row.cells.find((c) => c.column === column.key);
        const own = report?.requirements.find((r) => r.id === row.id);
        expect(cell?.verdict, `${column.name} ${row.id}`).toBe(own?.verdict);
        expect(cell?.status).toBe(statusOf(own?.verdict));
      }
      expect(column.verdict).toBe(report?.verdict.overall);
      expect(column.mustTested).toBe(report?.verdict.scope.mustTested);
    }
    expect(matrix.requirements.map((r) => r.id)).toEqual(
      inputs[0]?.report.requirements
        .map((r) => r.id)
        .sort((x, y) => {
          const areas = inputs[0]?.report.areas.map((a) => a.id) ?? [];
          const area = (id: string) => areas.indexOf(inputs[0]?.report.requirements.find((r) => r.id === id)?.area ?? '');
          return area(x) - area(y);
        }),
    );
  });

  it('counts each requirement over the implementations: "fails in 3 of 5"', () => {
    const matrix = buildMatrix(five(), { generatedAt: AT });
    const row = (id: string) => matrix.requirements.find((r) => r.id === id);
    expect(row('AUTH-002')?.counts).toMatchObject({ fail: 3, failing: 3, of: 5, pass: 2 });
    expect(row('STA-010')?.counts).toMatchObject({ deviation: 1, failing: 1 });
    expect(row('AUTH-009')?.counts).toMatchObject({ warn: 1, failing: 1 });
    expect(row('RATE-007')?.counts).toMatchObject({ untested: 1 });
    expect(matrix.mostFailed[0]).toBe('AUTH-002');
    expect(matrix.mostFailed).toHaveLength(4);
    const alpha = matrix.implementations.find((c) => c.name === 'alpha');
    expect(alpha?.counts.fail).toBe(2);
    expect(alpha?.mustFailing).toBe(2);
  });

  it('ranks the clean implementation first, signed before unsigned, failing MUSTs last', () => {
    const matrix = buildMatrix(five(), { generatedAt: AT });
    const names = matrix.ranking.map((k) => matrix.implementations.find((c) => c.key === k)?.name);
    // beta passes everything; delta only warns but is unsigned; the rest fail MUSTs (gamma 1, epsilon 1 + a deviation, alpha 2).
    expect(names).toEqual(['beta', 'delta', 'gamma', 'epsilon', 'alpha']);
    expect(matrix.implementations.map((c) => c.key)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  it('a not-verified input is shown but never counted, ranked or badged', () => {
    const inputs = [...five(), input('x', {}, { implementation: 'forged@9.9.9', trust: 'not-verified', problems: ['file conformance.json was changed'] })];
    const matrix = buildMatrix(inputs, { generatedAt: AT });
    const forged = matrix.implementations.find((c) => c.name === 'forged');
    expect(forged).toMatchObject({ trust: 'not-verified', counted: false });
    expect(forged?.badge).toBeUndefined();
    expect(matrix.ranking).not.toContain(forged?.key);
    expect(matrix.requirements.find((r) => r.id === 'AUTH-002')?.counts.of).toBe(5);
    // listed last, after every trusted column
    expect(matrix.implementations.at(-1)?.name).toBe('forged');
  });

  it('versions of one implementation: oldest first, only the newest counted, changes as compare classifies them', () => {
    const v1 = input('s1', { failing: ['LIM-001', 'AUTH-002'] }, { implementation: 'store@1.9.0' });
    const v2 = input('s2', { failing: ['AUTH-002', 'ERR-001'], minute: 5 }, { implementation: 'store@1.10.0' });
    const other = input('o', {}, { implementation: 'other@1.0.0' });
    const matrix = buildMatrix([v2, other, v1], { generatedAt: AT });
    const store = matrix.implementations.filter((c) => c.name === 'store');
    expect(store.map((c) => c.version)).toEqual(['1.9.0', '1.10.0']);
    expect(store.map((c) => c.counted)).toEqual([false, true]);
    const expected = compareReports(v1.report, v2.report);
    expect(store[1]?.history).toMatchObject({
      since: store[0]?.key,
      sinceVersion: '1.9.0',
      regressed: expected.regressed,
      newlyFailing: expected.newlyFailing.map((c) => c.id),
      fixed: expected.fixed.map((c) => c.id),
    });
    expect(store[1]?.history?.newlyFailing).toEqual(['ERR-001']);
    expect(store[1]?.history?.fixed).toEqual(['LIM-001']);
    const cell = (id: string) => matrix.requirements.find((r) => r.id === id)?.cells.find((c) => c.column === store[1]?.key);
    expect(cell('ERR-001')?.change).toBe('newly-failing');
    expect(cell('LIM-001')?.change).toBe('fixed');
    expect(cell('AUTH-002')?.change).toBeUndefined();
    expect(matrix.requirements.find((r) => r.id === 'LIM-001')?.counts).toMatchObject({ failing: 0, of: 2 });
    expect(matrix.requirements.find((r) => r.id === 'LIM-001')?.failingAnywhere).toBe(true);
    expect(store[0]?.history).toBeUndefined();
  });

  it('refuses inputs of another interface, and two inputs claiming the same name@version', () => {
    const other = input('z', {});
    other.report = { ...other.report, run: { ...other.report.run, specSha256: 'f'.repeat(64) } };
    expect(() => buildMatrix([input('a', {}), other], { generatedAt: AT })).toThrow(/another interface description/);
    expect(() => buildMatrix([input('a', {}, { implementation: 'x@1' }), input('b', {}, { implementation: 'x@1' })], { generatedAt: AT })).toThrow(
      /both claim to be x@1/,
    );
    expect(() => buildMatrix([], { generatedAt: AT })).toThrow(/no bundle or report/);
  });

  it('keeps evidence and curl line of a failing cell; links to the bundle report stay relative and inert', () => {
    const a = input('a', { failing: ['AUTH-002'] }, { implementation: 'a@1', reportHtml: '/out/javascript:alert(1)/conformance.html' });
    const matrix = buildMatrix([a], { generatedAt: AT, outDir: '/out' });
    const cell = matrix.requirements.find((r) => r.id === 'AUTH-002')?.cells[0];
    expect(cell?.evidence?.curl).toContain("curl -sS 'https://impl.example/v1/pets?limit=1'");
    expect(cell?.evidence?.request).toBe('GET https://impl.example/v1/pets?limit=1');
    expect(cell?.evidence?.status).toBe(200);
    expect(matrix.implementations[0]?.reportLink).toBe('./javascript%3Aalert(1)/conformance.html');
  });

  it('compares versions by their numbers', () => {
    expect(['1.10.0', '1.9.0', '1.9.1', 'v2.0.0', '0.9'].sort(compareVersions)).toEqual(['0.9', '1.9.0', '1.9.1', '1.10.0', 'v2.0.0']);
  });
});
