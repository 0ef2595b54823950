import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { JUDGED_BY_EVERY_PASS } from '../../src/certificate/coverage.ts';
import { EVERY_EXCHANGE_NAMED } from '../../src/certificate/named-exchanges.ts';
import { REQUESTS_OF_EVERY_PASS } from '../../src/certificate/request-counts.ts';
import { PARAMS_OF_EVERY_JUDGMENT, STATUSES_ALLOWED } from '../../src/certificate/stated-params.ts';
import { TABLE_ABSENCES, type TableName } from '../../src/certificate/table-absences.ts';
import { type PassedTest, deriveTables, tableContradictions } from '../../src/certificate/table-derivation.ts';

const TABLES: Record<TableName, readonly string[]> = {
  JUDGED_BY_EVERY_PASS: Object.keys(JUDGED_BY_EVERY_PASS),
  PARAMS_OF_EVERY_JUDGMENT: Object.keys(PARAMS_OF_EVERY_JUDGMENT),
  STATUSES_ALLOWED: Object.keys(STATUSES_ALLOWED),
  EVERY_EXCHANGE_NAMED,
  REQUESTS_OF_EVERY_PASS: Object.keys(REQUESTS_OF_EVERY_PASS),
};
const catalog = loadCatalog().requirements;
const tested = catalog.filter((r) => r.coverage === 'tested').map((r) => r.id);

describe('the certificate tables keyed by requirement', () => {
  it.each(Object.keys(TABLES) as TableName[])(
    '%s holds every tested requirement, or table-absences.ts says why not (npm run certificate:tables -- --write)',
    (table) => {
      const absent = TABLE_ABSENCES[table];
      const unaccounted = tested.filter((id) => !TABLES[table].includes(id) && !absent[id]?.trim());
      expect(unaccounted, `${table}: run npm run certificate:tables -- --write, or add the entries`).toEqual([]);
      // Nothing is listed for a requirement the catalog does not test.
      expect(Object.keys(absent).filter((id) => !tested.includes(id))).toEqual([]);
      expect(TABLES[table].filter((id) => !catalog.some((r) => r.id === id))).toEqual([]);
    },
  );

  it('a derivation from authentic passes names every checked-in entry a pass contradicts', () => {
    const pass = (requirementId: string, judgments: PassedTest['judgments'], exchanges: number[]): PassedTest => ({ requirementId, judgments, exchanges });
    const derived = deriveTables([
      {
        wholeCatalog: true,
        passes: [
          pass('STA-001', [{ kind: 'status', exchange: 1, allowed: [201] }], [1]),
          pass('STA-001', [{ kind: 'rule', rule: 'status-in', params: { allowed: [200, 201] }, exchanges: [2] }], [2, 3]),
        ],
      },
    ]);
    expect(derived.get('STA-001')).toMatchObject({
      passes: 2,
      judgedByEveryPass: [],
      statusesAllowed: [200, 201],
      requests: { min: 1, max: 2 },
      mostUnnamed: 1,
    });
    expect(
      tableContradictions(derived, {
        judgedByEveryPass: { 'STA-001': ['status'] },
        statusesAllowed: { 'STA-001': [201] },
        requestsOfEveryPass: { 'STA-001': 2 },
      }),
    ).toEqual([
      'JUDGED_BY_EVERY_PASS STA-001: a pass makes no status judgment',
      'STATUSES_ALLOWED STA-001: a pass allows 200',
      'REQUESTS_OF_EVERY_PASS STA-001: a pass sent 1, below 2',
    ]);
    expect(tableContradictions(derived, { judgedByEveryPass: {}, statusesAllowed: { 'STA-001': [200, 201] }, requestsOfEveryPass: { 'STA-001': 1 } })).toEqual(
      [],
    );
  });
});
