import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import type { TestOutcome } from '../../src/report/report-types.ts';
import type { ConformanceMeta } from '../../src/report/test-meta.ts';
import { numberExchangesOnce } from '../../src/report/test-outcomes.ts';

/**
 * Each suite file numbers its own exchanges; the report numbers them once for the run, and everything
 * that points at an exchange follows. A check the log cannot prove (`unprovable`) once kept its file's
 * number: a second file's "#1" named the run's first exchange, and rejudge found the report's claim
 * on the wrong answer (the log does not bear it out), so a certified run with a redacted answer did not
 * re-judge to its own verdict.
 */
function exchange(seq: number, startedAt: number): Exchange {
  return { seq, startedAt, durationMs: 1, operationId: 'listPets', request: { method: 'GET', url: 'http://x/v1/pets', headers: {} }, curl: '' };
}

function outcome(file: string, meta: Partial<ConformanceMeta>): TestOutcome {
  return {
    id: file,
    name: `CON-002 ${file}`,
    file,
    state: 'skipped',
    durationMs: 1,
    errors: [],
    meta: { requirementId: 'CON-002', level: 'MUST', area: 'consistency', exchanges: [], findings: [], ...meta } as ConformanceMeta,
  };
}

describe("the run's one numbering of exchanges", () => {
  it('renumbers what a test says the log cannot prove, as it does findings and failures', () => {
    const first = outcome('suites/a.test.ts', { exchanges: [exchange(1, 10), exchange(2, 30)] });
    const second = outcome('suites/b.test.ts', {
      exchanges: [exchange(1, 20), exchange(2, 40)],
      findings: [{ check: 'json-content-type', requirementId: 'SCH-004', exchangeSeq: 2, expected: 'e', actual: 'a' }],
      unprovable: [
        { check: 'response-schema', requirementId: 'SCH-001', exchangeSeq: 1 },
        { check: 'json-content-type', requirementId: 'SCH-004', exchangeSeq: 2 },
      ],
    });
    const [, numbered] = numberExchangesOnce([first, second]);
    // By when they were sent: a#1 (10), b#1 (20), a#2 (30), b#2 (40).
    expect(numbered?.meta?.exchanges.map((e) => e.seq)).toEqual([2, 4]);
    expect(numbered?.meta?.findings.map((f) => f.exchangeSeq)).toEqual([4]);
    expect(numbered?.meta?.unprovable).toEqual([
      { check: 'response-schema', requirementId: 'SCH-001', exchangeSeq: 2 },
      { check: 'json-content-type', requirementId: 'SCH-004', exchangeSeq: 4 },
    ]);
  });

  it("renumbers the exchanges an untested check's reason cites, and nothing the reason quotes after them", () => {
    const first = outcome('suites/a.test.ts', { exchanges: [exchange(1, 10), exchange(2, 30)] });
    const reason = 'the log holds #1, #2 redacted (it held text like the API key), and on what it holds the rule r does not hold: id #2 differs';
    const second = outcome('suites/b.test.ts', { exchanges: [exchange(1, 20), exchange(2, 40)], skipCode: 'unprovable', skipReason: reason });
    const precondition = outcome('suites/b.test.ts', { exchanges: [exchange(1, 20)], skipCode: 'precondition', skipReason: 'the log holds #1 redacted' });
    const [, numbered, other] = numberExchangesOnce([first, second, precondition]);
    expect(numbered?.meta?.skipReason).toBe(
      'the log holds #2, #4 redacted (it held text like the API key), and on what it holds the rule r does not hold: id #2 differs',
    );
    // Only an unprovable check's reason is the suite's citation; another reason is left as written.
    expect(other?.meta?.skipReason).toBe('the log holds #1 redacted');
    // A reason redaction changed (a one-digit key) cites nothing the numbering can read: left as it is.
    const [, redacted] = numberExchangesOnce([
      first,
      outcome('suites/b.test.ts', { exchanges: [exchange(1, 20)], skipCode: 'unprovable', skipReason: 'the log holds #*** redacted' }),
    ]);
    expect(redacted?.meta?.skipReason).toBe('the log holds #*** redacted');
  });

  it('leaves a test without unprovable checks without the field', () => {
    const [numbered] = numberExchangesOnce([outcome('suites/a.test.ts', { exchanges: [exchange(1, 10)] })]);
    expect(numbered?.meta).not.toHaveProperty('unprovable');
  });
});
