import { describe, expect, it } from 'vitest';
import { EVERY_EXCHANGE_NAMED, unnamedExchange } from '../../src/certificate/named-exchanges.ts';
import type { RecordedEntry } from '../../src/certificate/rejudge-har.ts';
import { recordedEntry } from '../support/recorded-entry.ts';
import type { Judgment } from '../../src/report/test-meta.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';

const entry = recordedEntry;

const status = (exchange: number, allowed: number): Judgment => ({ kind: 'status', exchange, allowed: [allowed] });

describe('every exchange a passed test sends is named by a judgment', () => {
  // AUTH-003's getPet cases: a pet set up (#1), then three refused key forms (#2, #3, #4).
  const log = new Map([
    [1, entry(1, 'createPet', 201, { text: '{"id":7,"name":"Rex","categoryId":1}' })],
    ...[2, 3, 4].map((seq): [number, RecordedEntry] => [seq, entry(seq, 'getPet', 401, { url: 'https://impl.example/v1/pets/7' })]),
  ]);

  it('names nothing when each case is judged; the pet the judged getPets asked for is set-up, not a case', () => {
    expect(unnamedExchange('AUTH-003', [1, 2, 3, 4], [status(2, 401), status(3, 401), status(4, 401)], log)).toBeUndefined();
  });

  it('names the case whose failing judgment a forger dropped', () => {
    expect(unnamedExchange('AUTH-003', [1, 2, 3, 4], [status(2, 401), status(4, 401)], log)).toBe(
      '#3 (getPet, 401) is named by no judgment, where a passed AUTH-003 test judges every exchange it sends',
    );
  });

  it('passes over no answer and a 429 sent again; an idFrom source is named; other requirements ask nothing', () => {
    const retried = new Map([...log, [5, entry(5, 'getPet', 429)], [6, entry(6, 'getPet', 0, { transportError: true })]]);
    expect(unnamedExchange('AUTH-003', [1, 2, 5, 6], [status(2, 401)], retried)).toBeUndefined();
    const read: Judgment = { kind: 'rule', rule: 'pet-is', params: { idFrom: 1 }, exchanges: [2] };
    expect(unnamedExchange('CON-001', [1, 2], [read], log)).toBeUndefined();
    // A create no judgment reads, and no judged getPet asked for, is a case left unjudged.
    expect(unnamedExchange('STA-001', [1], [], log)).toMatch(/^#1 \(createPet, 201\) is named by no judgment/);
    expect(unnamedExchange('AUTH-001', [1, 2], [status(2, 401)], log)).toBeUndefined();
    expect(unnamedExchange('AUTH-003', [1, 2, 3], [status(2, 401)], log, [])).toBeUndefined();
  });

  it('names only requirements of the catalog', () => {
    const ids = new Set(loadCatalog().requirements.map((r) => r.id));
    expect(EVERY_EXCHANGE_NAMED.filter((id) => !ids.has(id))).toEqual([]);
  });
});
