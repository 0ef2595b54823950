import { describe, expect, it } from 'vitest';
import { JUDGED_BY_EVERY_PASS, JUDGED_ON_EVERY_EXCHANGE, missingJudgment, unjudgedExchange } from '../../src/certificate/coverage.ts';
import { judgmentRule } from '../../src/checks/judgment-rules.ts';
import { recordedEntry } from '../support/recorded-entry.ts';
import type { Judgment } from '../../src/report/test-meta.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';

const entry = recordedEntry;

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
    // HTTP-001's probes are judged by their rule on the log's record of the wire, a check no longer stands for it.
    expect(missingJudgment('HTTP-001', [rule('framing-probe-kept', 1)])).toBeUndefined();
    expect(missingJudgment('HTTP-001', [{ kind: 'check', exchanges: [1] }])).toMatch(/no framing-probe-kept judgment/);
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
