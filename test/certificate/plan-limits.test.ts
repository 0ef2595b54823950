import { describe, expect, it } from 'vitest';
import { unplannedLimit } from '../../src/certificate/plan-limits.ts';
import { readHarEntries } from '../../src/certificate/rejudge-har.ts';
import type { Judgment } from '../../src/report/test-meta.ts';
import { recordedEntry } from '../support/recorded-entry.ts';

const limitIs = (params: Record<string, unknown>, ...exchanges: number[]): Judgment => ({
  kind: 'rule',
  rule: 'rate-header-is',
  params: { field: 'limit', ...params },
  exchanges,
});
const window = (perMinute: unknown, ...exchanges: number[]): Judgment => ({
  kind: 'rule',
  rule: 'rate-plan-window',
  params: { perMinute, bursts: [60], preflighted: true },
  exchanges,
});

// #1 sent with the main key, #2 and #3 with a Free plan key, #4 with a key the log does not name.
const bySeq = new Map(
  [
    recordedEntry(1, 'listPets', 200, { keyVariable: 'API_KEY' }),
    recordedEntry(2, 'listPets', 200, { keyVariable: 'FREE_PLAN_KEY' }),
    recordedEntry(3, 'listPets', 429, { keyVariable: 'FREE_PLAN_KEY' }),
    recordedEntry(4, 'listPets', 200),
  ].map((entry) => [entry.seq, entry]),
);
const business = { plan: 'business' as const };

describe("RATE-008's stated limits, held to the plan of the key that sent the request", () => {
  it("the main key's judgment states its plan's row; a plan key's, its own", () => {
    expect(unplannedLimit('RATE-008', [limitIs({ oneOf: [1000, 100000] }, 1)], bySeq, business)).toBeUndefined();
    expect(unplannedLimit('RATE-008', [limitIs({ oneOf: [60, 1000] }, 2), window(60, 2, 3)], bySeq, business)).toBeUndefined();
  });

  it("another plan's row, a loosened one, or a window of another size is named", () => {
    // A Business key that answered the Pro row, restated as Pro.
    expect(unplannedLimit('RATE-008', [limitIs({ oneOf: [300, 10000] }, 1)], bySeq, business)).toBe(
      'the rate-header-is judgment of #1 states {"field":"limit","oneOf":[300,10000]}, where the business-plan key that sent it is held to 1000 a minute or 100000 a day',
    );
    expect(unplannedLimit('RATE-008', [limitIs({ oneOf: [1000, 100000, 300] }, 1)], bySeq, business)).toMatch(/states/);
    expect(unplannedLimit('RATE-008', [limitIs({ min: 1 }, 1)], bySeq, business)).toMatch(/held to 1000 a minute/);
    expect(unplannedLimit('RATE-008', [window(100, 2, 3)], bySeq, business)).toMatch(/the free-plan key that sent it is held to 60 a minute/);
  });

  it('an Enterprise key is held to its stated limits, or to a positive limit when none were stated', () => {
    const stated = { plan: 'enterprise' as const, planLimits: { perMinute: 5000, perDay: 100000 } };
    expect(unplannedLimit('RATE-008', [limitIs({ oneOf: [5000, 100000] }, 1)], bySeq, stated)).toBeUndefined();
    expect(unplannedLimit('RATE-008', [limitIs({ min: 1 }, 1)], bySeq, stated)).toMatch(/held to 5000 a minute/);
    expect(unplannedLimit('RATE-008', [limitIs({ min: 1 }, 1)], bySeq, { plan: 'enterprise' })).toBeUndefined();
    expect(unplannedLimit('RATE-008', [limitIs({ oneOf: [7, 8] }, 1)], bySeq, { plan: 'enterprise' })).toMatch(/a custom limit of at least 1/);
  });

  it('a key the log does not name, a plan the report does not give, or requests of two keys in one judgment are named', () => {
    expect(unplannedLimit('RATE-008', [limitIs({ oneOf: [60, 1000] }, 4)], bySeq, business)).toMatch(/a key the log does not name/);
    expect(unplannedLimit('RATE-008', [limitIs({ oneOf: [1000, 100000] }, 1)], bySeq, {})).toMatch(/sent with \$API_KEY, whose plan the report does not give/);
    expect(unplannedLimit('RATE-008', [window(60, 1, 2)], bySeq, business)).toMatch(/requests sent with 2 keys/);
  });

  it("other requirements, and RATE-008's other judgments, are not its to judge", () => {
    expect(unplannedLimit('RATE-002', [limitIs({ oneOf: [7] }, 1)], bySeq, business)).toBeUndefined();
    expect(
      unplannedLimit(
        'RATE-008',
        [limitIs({ oneOf: [7] }, 1)].map((j) => ({ ...j, params: { field: 'remaining', oneOf: [7] } })),
        bySeq,
        business,
      ),
    ).toBeUndefined();
  });

  it('the log names the key by the variable its curl line reads it from', () => {
    const har = {
      log: {
        entries: [
          {
            _seq: 5,
            startedDateTime: '2026-11-26T00:00:00.000Z',
            time: 1,
            request: { method: 'GET', url: 'https://impl.example/v1/pets' },
            response: { status: 200 },
            _curl: `curl -sS 'https://impl.example/v1/pets' -H "Authorization: Bearer $FREE_PLAN_KEY"`,
          },
        ],
      },
    };
    const read = readHarEntries(har);
    expect('entries' in read && read.entries[0]?.keyVariable).toBe('FREE_PLAN_KEY');
  });
});
