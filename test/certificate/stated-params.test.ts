import { describe, expect, it } from 'vitest';
import { PARAMS_OF_EVERY_JUDGMENT, STATUSES_ALLOWED, weakenedJudgment } from '../../src/certificate/stated-params.ts';
import { judgmentRule } from '../../src/checks/judgment-rules.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import type { Judgment } from '../../src/report/test-meta.ts';

const status = (exchange: number, allowed: number[]): Judgment => ({ kind: 'status', exchange, allowed });
const rule = (name: string, params: Record<string, unknown>, ...exchanges: number[]): Judgment => ({ kind: 'rule', rule: name, params, exchanges });
describe('the params every pass states in full', () => {
  const petIs = (params: Record<string, unknown>): Judgment => ({ kind: 'rule', rule: 'pet-is', params, exchanges: [2] });
  // #1 created Rex (categoryId 2) and sent no status; the create answered "available".
  const logged = { pet: (seq: number) => (seq === 1 ? { name: 'Rex', categoryId: 2n, status: 'available' } : undefined), sentFields: () => undefined };
  const whole = { idFrom: 1, name: 'Rex', categoryId: '2', status: 'available' };

  it('a CON-001 pet-is that compares every field the log holds of its animal is whole', () => {
    expect(weakenedJudgment('CON-001', [status(2, [200]), petIs(whole)], logged)).toBeUndefined();
  });

  it('one that leaves out a field, its idFrom, or loosens the status is named', () => {
    const { name: _name, ...nameless } = whole;
    expect(weakenedJudgment('CON-001', [petIs(nameless)], logged)).toBe(
      'the pet-is judgment of #2 leaves out the name #1 holds, where every passed CON-001 test compares it',
    );
    const { status: _status, ...statusless } = whole;
    expect(weakenedJudgment('CON-001', [petIs(statusless)], logged)).toMatch(/leaves out the status #1 holds/);
    expect(weakenedJudgment('CON-001', [petIs({ name: 'Rex', categoryId: '2' })], logged)).toMatch(/gives no idFrom, where every passed CON-001 test gives it/);
    expect(weakenedJudgment('CON-001', [petIs({ ...whole, statusIfAnswered: true })], logged)).toMatch(
      /gives statusIfAnswered, which no passed CON-001 test gives/,
    );
    // DEP-001 compares the status only when the answer has one (its default is open), and says so.
    expect(weakenedJudgment('DEP-001', [petIs({ ...whole, statusIfAnswered: true })], logged)).toBeUndefined();
  });

  it('a field the log does not hold readably is not asked for; an empty table asks nothing', () => {
    expect(weakenedJudgment('CON-001', [petIs({ idFrom: 9 })], logged)).toBeUndefined();
    expect(weakenedJudgment('CON-001', [petIs({})], logged, { paramsOfEveryJudgment: {} })).toBeUndefined();
    expect(weakenedJudgment('INT-001', [petIs({ idFrom: 1 })], logged)).toMatch(/gives no categoryId/);
  });

  it('names only requirements of the catalog and rules this suite has', () => {
    const ids = new Set(loadCatalog().requirements.map((r) => r.id));
    expect(Object.keys(PARAMS_OF_EVERY_JUDGMENT).filter((id) => !ids.has(id))).toEqual([]);
    const rules = Object.values(PARAMS_OF_EVERY_JUDGMENT).flatMap((byRule) => Object.keys(byRule));
    expect(rules.filter((name) => judgmentRule(name) === undefined)).toEqual([]);
  });
});

describe('what every test of a requirement allows and asks for', () => {
  const none = { pet: () => undefined, sentFields: () => undefined };

  it('a status judgment or status-in allowing a status no test of the requirement allows is named', () => {
    expect(weakenedJudgment('STA-001', [status(1, [201])], none)).toBeUndefined();
    expect(weakenedJudgment('STA-001', [status(1, [201, 200])], none)).toBe('the status judgment of #1 allows 200, which no test of STA-001 allows (201)');
    expect(weakenedJudgment('AUTH-001', [rule('status-in', { allowed: [401, 500] }, 3)], none)).toMatch(/^the status-in judgment of #3 allows 500/);
    // A requirement the table does not hold, or an empty table, asks nothing.
    expect(weakenedJudgment('RATE-004', [status(1, [500])], none)).toBeUndefined();
    expect(weakenedJudgment('STA-001', [status(1, [200])], none, { statusesAllowed: {} })).toBeUndefined();
  });

  it('a param every test gives one way, given another, is named', () => {
    expect(weakenedJudgment('STA-008', [rule('status-below', { limit: 500 }, 1)], none)).toBeUndefined();
    expect(weakenedJudgment('STA-008', [rule('status-below', { limit: 600 }, 1)], none)).toBe(
      'the status-below judgment of #1 gives limit 600, where every STA-008 test gives 500',
    );
    expect(weakenedJudgment('RATE-011', [rule('status-other-than', { status: 500 }, 1)], none)).toMatch(
      /gives status 500, where every RATE-011 test gives 429/,
    );
    expect(weakenedJudgment('AUTH-009', [rule('headers-present', { names: [] }, 1)], none)).toMatch(
      /gives names \[\], where every AUTH-009 test gives \["WWW-Authenticate"\]/,
    );
    // A list's bounds: CON-003 counts the pet exactly once; LIM-002 allows 100, and exactly 100 on a full store.
    expect(weakenedJudgment('CON-003', [rule('list-count-of-id', { idFrom: 1, max: 2 }, 2)], none)).toMatch(/gives max 2, where every CON-003 test gives 1/);
    expect(weakenedJudgment('CON-003', [rule('list-count-of-id', { idFrom: 1, min: 1, max: 1 }, 2)], none)).toBeUndefined();
    // A pass judges its list by both bounds: the lower one dropped (the pet missing from a complete list) is named.
    expect(weakenedJudgment('CON-003', [rule('list-count-of-id', { idFrom: 1, max: 1 }, 2)], none)).toMatch(/gives min null, where every CON-003 test gives 1/);
    expect(weakenedJudgment('LIM-002', [rule('list-length', { max: 100, min: 99 }, 2)], none)).toMatch(
      /gives min 99, where every LIM-002 test gives 100 or null/,
    );
    expect(weakenedJudgment('LIM-002', [rule('list-length', { max: 100 }, 2)], none)).toBeUndefined();
    expect(weakenedJudgment('SCH-008', [rule('json-schema', { schema: 'Error' }, 1)], none)).toBeUndefined();
    expect(weakenedJudgment('SCH-008', [rule('json-schema', { schema: 'Pets' }, 1)], none)).toMatch(/gives schema "Pets"/);
  });

  it("a createPet's echo compared on fewer fields than its request sent is named, where every test compares all", () => {
    // #1 sent name, categoryId and status; #2 sent no status.
    const sent = { pet: () => undefined, sentFields: (seq: number) => (seq === 1 ? ['name', 'categoryId', 'status'] : ['name', 'categoryId']) };
    const echo = (fields: string[], seq: number) => rule('pet-echoes-sent', { fields }, seq);
    expect(weakenedJudgment('SCH-005', [echo(['name', 'categoryId', 'status'], 1), echo(['name', 'categoryId'], 2)], sent)).toBeUndefined();
    expect(weakenedJudgment('SCH-005', [echo(['name', 'categoryId'], 1)], sent)).toBe(
      'the pet-echoes-sent judgment of #1 leaves out the status #1 sent, where every passed SCH-005 test compares what it sent',
    );
    expect(weakenedJudgment('SCH-006', [echo(['name'], 2)], sent)).toMatch(/leaves out the categoryId #2 sent/);
    // STA-014 compares the name alone, whatever else was sent.
    expect(weakenedJudgment('STA-014', [echo(['name'], 1)], sent)).toBeUndefined();
  });

  it('names only requirements of the catalog, and statuses an operation can answer', () => {
    const ids = new Set(loadCatalog().requirements.map((r) => r.id));
    expect(Object.keys(STATUSES_ALLOWED).filter((id) => !ids.has(id))).toEqual([]);
    expect(
      Object.values(STATUSES_ALLOWED)
        .flat()
        .filter((code) => !Number.isInteger(code) || code < 200 || code > 499),
    ).toEqual([]);
  });
});
