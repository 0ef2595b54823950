import { describe, expect, it } from 'vitest';
import {
  JUDGED_BY_EVERY_PASS,
  JUDGED_ON_EVERY_EXCHANGE,
  PARAMS_OF_EVERY_JUDGMENT,
  missingJudgment,
  unjudgedExchange,
  weakenedJudgment,
} from '../../src/certificate/coverage.ts';
import { judgmentRule } from '../../src/checks/judgment-rules.ts';
import type { RecordedEntry } from '../../src/certificate/rejudge-har.ts';
import type { Judgment } from '../../src/harness/meta.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';

/** An entry of the log: what the coverage reads of it (its operation, status, and whether it was answered). */
function entry(seq: number, operationId: string, status: number, extra: Partial<RecordedEntry> = {}): RecordedEntry {
  return {
    seq,
    startedAt: 0,
    durationMs: 1,
    operationId,
    method: operationId === 'createPet' ? 'POST' : 'GET',
    url: 'https://impl.example/v1/pets',
    status,
    headers: {},
    text: '',
    requestText: undefined,
    bodyCut: false,
    bodyInexact: false,
    raw: false,
    summarised: false,
    transportError: false,
    retries: 0,
    ...extra,
  };
}

const status = (exchange: number, allowed = 201): Judgment => ({ kind: 'status', exchange, allowed: [allowed] });
const rule = (name: string, ...exchanges: number[]): Judgment => ({ kind: 'rule', rule: name, params: {}, exchanges });

/** SCH-006's two generated cases: a create and its read-back each. */
const LOG = new Map([1, 2, 3, 4].map((seq) => [seq, entry(seq, seq % 2 ? 'createPet' : 'getPet', seq % 2 ? 201 : 200)]));
const JUDGED: Judgment[] = [
  status(1),
  rule('pet-echoes-sent', 1),
  status(2, 200),
  rule('pet-as-answered', 2),
  status(3),
  rule('pet-echoes-sent', 3),
  status(4, 200),
  rule('pet-as-answered', 4),
];

describe('rejudge: the rules a passed property or model test judges every exchange by', () => {
  it('names nothing when every exchange is judged by each of its rules', () => {
    expect(unjudgedExchange('SCH-006', [1, 2, 3, 4], JUDGED, LOG)).toBeUndefined();
  });

  it('names the first exchange a dropped judgment leaves, and the rule', () => {
    const dropped = JUDGED.filter((j) => !(j.kind === 'rule' && j.rule === 'pet-echoes-sent' && j.exchanges[0] === 3));
    expect(unjudgedExchange('SCH-006', [1, 2, 3, 4], dropped, LOG)).toBe(
      '#3 (createPet, 201) is judged by no pet-echoes-sent, where a passed SCH-006 judges every createPet answered other than 4xx by status and pet-echoes-sent',
    );
    expect(unjudgedExchange('SCH-006', [1, 2, 3, 4], [], LOG)).toMatch(/^#1 \(createPet, 201\) is judged by no status/);
  });

  it('a judgment of another rule, or of another exchange, does not stand in', () => {
    const moved = JUDGED.map((j) => (j.kind === 'rule' && j.rule === 'pet-as-answered' && j.exchanges[0] === 4 ? rule('pet-is', 4) : j));
    expect(unjudgedExchange('SCH-006', [1, 2, 3, 4], moved, LOG)).toMatch(/^#4 \(getPet, 200\) is judged by no pet-as-answered/);
    const shifted = JUDGED.map((j) => (j.kind === 'status' && j.exchange === 3 ? status(1) : j));
    expect(unjudgedExchange('SCH-006', [1, 2, 3, 4], shifted, LOG)).toMatch(/^#3 \(createPet, 201\) is judged by no status/);
  });

  it('passes over a 4xx to a valid NewPet (a liberty the test learns from), never a 5xx', () => {
    const log = new Map(LOG);
    log.set(5, entry(5, 'createPet', 400));
    expect(unjudgedExchange('SCH-006', [5, 1, 2, 3, 4], JUDGED, log)).toBeUndefined();
    log.set(5, entry(5, 'createPet', 500));
    expect(unjudgedExchange('SCH-006', [5, 1, 2, 3, 4], JUDGED, log)).toMatch(/^#5 \(createPet, 500\) is judged by no status/);
    // The refusal tests judge their 400s: one left unjudged is named.
    log.set(5, entry(5, 'createPet', 400));
    expect(unjudgedExchange('STA-006', [5], [], log)).toMatch(
      /^#5 \(createPet, 400\) is judged by no status-in, where a passed STA-006 judges every createPet by status-in$/,
    );
  });

  it('passes over exchanges no test judges: no answer, a 429 sent again, the framing probe, an entry the log lacks', () => {
    const log = new Map(LOG);
    log.set(5, entry(5, 'createPet', 429));
    log.set(6, entry(6, 'createPet', 0, { transportError: true }));
    log.set(7, entry(7, 'listPets', 200, { raw: true }));
    expect(unjudgedExchange('SCH-006', [5, 6, 7, 8, 1, 2, 3, 4], JUDGED, log)).toBeUndefined();
  });

  it('holds only the requirements listed, and each listed one exists in the catalog', () => {
    expect(unjudgedExchange('VER-001', [1, 2], [], LOG)).toBeUndefined();
    const ids = new Set(loadCatalog().requirements.map((r) => r.id));
    expect(Object.keys(JUDGED_ON_EVERY_EXCHANGE).filter((id) => !ids.has(id))).toEqual([]);
  });
});

describe("the framing probe's exchanges (HTTP-001)", () => {
  const heard = (seq: number, bytes: number) => entry(seq, 'listPets', 200, { raw: true, heardAfter: { bytes, closed: false } });
  it('each one recording what followed its response is judged by nothing-heard-after; the others are passed over', () => {
    const log = new Map([
      [1, heard(1, 0)],
      [2, entry(2, 'listPets', 200, { raw: true })],
      [3, heard(3, 0)],
    ]);
    expect(unjudgedExchange('HTTP-001', [1, 2, 3], [rule('nothing-heard-after', 1), rule('nothing-heard-after', 3)], log)).toBeUndefined();
    // A forger who passes HTTP-001 and drops the judgment of the response followed by bytes nobody asked for:
    expect(unjudgedExchange('HTTP-001', [1, 2, 3], [rule('nothing-heard-after', 1)], log)).toBe(
      '#3 (the framing probe, 200) is judged by no nothing-heard-after, where a passed HTTP-001 judges every framing probe exchange by nothing-heard-after',
    );
    // Another requirement's raw exchanges are not the probe's concern here.
    expect(unjudgedExchange('HTTP-002', [1, 3], [], log)).toBeUndefined();
  });
});

describe('the judgments every pass of a requirement makes', () => {
  it('a pass with none of them, or without one, is named; one with each (and more) is not', () => {
    expect(missingJudgment('DEP-005', [])).toBe('it records no judgment, where every test of this suite records what it judged');
    // DEP-005's one rule dropped with its failure, a status judgment left: the test lacks its rule.
    expect(missingJudgment('DEP-005', [status(1, 200)])).toBe('it records no deprecation-link judgment, where every passed DEP-005 test makes one');
    expect(missingJudgment('DEP-005', [status(1, 200), rule('deprecation-link', 1)])).toBeUndefined();
    expect(missingJudgment('CON-001', [status(1, 200)])).toMatch(/no pet-is judgment/);
    expect(missingJudgment('SCH-006', [rule('pet-as-answered', 2)])).toMatch(/^it records no status or pet-echoes-sent judgment/);
    // A check judgment counts as `check` (CON-003's list of every pet added, the framing probe's bytes).
    expect(missingJudgment('HTTP-002', [{ kind: 'check', exchanges: [1] }])).toBeUndefined();
    expect(missingJudgment('HTTP-002', [status(1, 400)])).toMatch(/no check judgment/);
  });

  it('a requirement the table does not hold needs a judgment of any kind; an empty table asks nothing more', () => {
    expect(missingJudgment('RATE-011', [rule('status-other-than', 1)])).toBeUndefined();
    expect(missingJudgment('DEP-005', [status(1, 200)], {})).toBeUndefined();
    expect(missingJudgment('DEP-005', [], {})).toMatch(/records no judgment/);
  });

  it('names only requirements of the catalog, and judgments this suite makes', () => {
    const ids = new Set(loadCatalog().requirements.map((r) => r.id));
    expect(Object.keys(JUDGED_BY_EVERY_PASS).filter((id) => !ids.has(id))).toEqual([]);
    const unknown = Object.values(JUDGED_BY_EVERY_PASS)
      .flat()
      .filter((name) => name !== 'status' && name !== 'check' && judgmentRule(name) === undefined);
    expect(unknown).toEqual([]);
    for (const [id, rules] of Object.entries(JUDGED_BY_EVERY_PASS)) expect({ id, empty: rules.length === 0 }).toEqual({ id, empty: false });
  });
});

describe('the params every pass states in full', () => {
  const petIs = (params: Record<string, unknown>): Judgment => ({ kind: 'rule', rule: 'pet-is', params, exchanges: [2] });
  // #1 created Rex (categoryId 2) and sent no status; the create answered "available".
  const logged = (seq: number) => (seq === 1 ? { name: 'Rex', categoryId: 2n, status: 'available' } : undefined);
  const whole = { idFrom: 1, name: 'Rex', categoryId: '2', status: 'available' };

  it('a CON-001 pet-is that compares every field the log holds of its animal is whole', () => {
    expect(weakenedJudgment('CON-001', [status(2, 200), petIs(whole)], logged)).toBeUndefined();
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
    expect(weakenedJudgment('CON-001', [petIs({})], logged, {})).toBeUndefined();
    expect(weakenedJudgment('INT-001', [petIs({ idFrom: 1 })], logged)).toMatch(/gives no categoryId/);
  });

  it('names only requirements of the catalog and rules this suite has', () => {
    const ids = new Set(loadCatalog().requirements.map((r) => r.id));
    expect(Object.keys(PARAMS_OF_EVERY_JUDGMENT).filter((id) => !ids.has(id))).toEqual([]);
    const rules = Object.values(PARAMS_OF_EVERY_JUDGMENT).flatMap((byRule) => Object.keys(byRule));
    expect(rules.filter((name) => judgmentRule(name) === undefined)).toEqual([]);
  });
});
