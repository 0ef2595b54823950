import { describe, expect, it } from 'vitest';
import { type PlanReading, planWindowSteps } from '../../src/checks/rules/plan-window-rules.ts';
import { evaluateRule, type RuleExchange } from '../../src/checks/judgment-rules.ts';
import { contract } from './context.ts';

/** A listPets answer of a key with a minute of 3: its status, Remaining and Reset (Unix seconds). */
const reading = (status: number, remaining: number, reset = 1_767_225_600): PlanReading => ({ status, limit: 3, remaining, reset });

function exchangeOf(r: PlanReading): RuleExchange {
  const headers = { 'x-ratelimit-limit': String(r.limit), 'x-ratelimit-remaining': String(r.remaining), 'x-ratelimit-reset': String(r.reset) };
  return {
    status: r.status,
    headers,
    text: '[]',
    body: [],
    isJson: true,
    requestText: undefined,
    url: 'http://store.test/v1/pets?limit=1',
    operationId: 'listPets',
    startedAt: 0,
  };
}

/** The rule on the first reading and the bursts, as the suite records them. */
function judged(first: PlanReading, bursts: PlanReading[][], preflighted = false) {
  const exchanges = [first, ...bursts.flat()].map(exchangeOf);
  return evaluateRule('rate-plan-window', exchanges, { perMinute: 3, bursts: bursts.map((b) => b.length), preflighted }, contract);
}

describe('RATE-008: the count of a plan key window, one pure function for the suite and the log', () => {
  it('a window the suite opened serves the minute, then 429: done, and the rule holds', () => {
    const first = reading(200, 2);
    const bursts = [[reading(200, 1), reading(200, 0), reading(429, 0)]];
    expect(planWindowSteps(first, bursts, 3, false)).toMatchObject([{ total: 3, served: 2, refused: 1, next: 'done' }]);
    expect(judged(first, bursts).holds).toBe(true);
  });

  it('a 429 one request early fails, naming the 429 and the anchor', () => {
    const first = reading(200, 2);
    const bursts = [[reading(200, 1), reading(429, 0), reading(429, 0)]];
    const result = judged(first, bursts);
    expect(result).toMatchObject({ holds: false, failedAt: 2, alsoAt: 0 });
    expect(result.actual).toMatch(/^2 served, then 429/);
  });

  it('one request served past the minute fails, naming the last served', () => {
    const result = judged(reading(200, 2), [[reading(200, 1), reading(200, 0), reading(200, 0)]]);
    expect(result).toMatchObject({ holds: false, failedAt: 3, alsoAt: 0 });
  });

  it("a window turned on the way is counted again from the suite's requests that reached the next", () => {
    // Remaining 1 of 3: a window the suite did not open, spent with a burst of two that both reach the next.
    const first = reading(200, 1);
    const next = 1_767_225_660;
    const bursts = [
      [reading(200, 2, next), reading(200, 1, next)],
      [reading(200, 0, next), reading(429, 0, next)],
    ];
    const steps = planWindowSteps(first, bursts, 3, false);
    // The first window, not opened by the suite, held to what it promised; it turned.
    expect(steps[0]).toMatchObject({ total: undefined, next: 'turned', following: 2 });
    expect(steps[1]).toMatchObject({ anchor: 2, total: 3, next: 'done' });
    expect(judged(first, bursts).holds).toBe(true);
    // The same with a fourth request served in the next window: the count goes on across the turn.
    const over = [bursts[0]!, [reading(200, 0, next), reading(200, 0, next)]];
    expect(judged(first, over)).toMatchObject({ holds: false, failedAt: 4 });
  });

  it('a burst that sees the window turn twice is counted on in the newest window only', () => {
    // A valid key: each window serves 3. The burst of 3 reaches two later windows, one request in the first.
    const first = reading(200, 2);
    const [second, third] = [1_767_225_660, 1_767_225_720];
    const bursts = [
      [reading(200, 2, second), reading(200, 2, third), reading(200, 1, third)],
      [reading(200, 0, third), reading(429, 0, third)],
    ];
    expect(planWindowSteps(first, bursts, 3, false)[1]).toMatchObject({ total: 3, next: 'done' });
    expect(judged(first, bursts).holds).toBe(true);
    // A fourth request served in the newest window still fails.
    const over = [bursts[0]!, [reading(200, 0, third), reading(200, 0, third)]];
    expect(judged(first, over)).toMatchObject({ holds: false, failedAt: 5 });
  });

  it('a window the suite did not open is held to its Remaining, and a 429 there leaves it unjudged', () => {
    // Remaining 1 of a minute of 3: somebody spent one request before the suite.
    const first = reading(200, 1);
    expect(planWindowSteps(first, [[reading(200, 0), reading(429, 0)]], 3, false)).toMatchObject([{ next: 'not-opened' }]);
    expect(judged(first, [[reading(200, 0), reading(429, 0)]]).holds).toBe(true);
    expect(judged(first, [[reading(200, 0), reading(200, 0)]])).toMatchObject({ holds: false, failedAt: 2 });
    // A preflighted key: the preflight's request explains the one, so the window counts as the suite's.
    expect(planWindowSteps(first, [[reading(200, 0), reading(429, 0)]], 3, true)).toMatchObject([{ total: 3, next: 'done' }]);
  });

  it('bursts grouped otherwise than the suite sends them (Remaining and one more) are refused', () => {
    // One burst of 3 after Remaining 2, re-grouped as 1 + 2 so that the first "window" seems to turn.
    const exchanges = [reading(200, 2), reading(200, 1), reading(200, 0), reading(200, 0)].map(exchangeOf);
    expect(evaluateRule('rate-plan-window', exchanges, { perMinute: 3, bursts: [3], preflighted: false }, contract).holds).toBe(false);
    const regrouped = evaluateRule('rate-plan-window', exchanges, { perMinute: 3, bursts: [1, 2], preflighted: false }, contract);
    expect(regrouped).toMatchObject({ holds: false, expected: 'a burst of 3 requests (Remaining 2, and one more)', failedAt: 1 });
  });

  it('burst sizes that do not add up to the exchanges, or a forged preflight flag, are refused', () => {
    const exchanges = [reading(200, 2), reading(200, 1), reading(200, 0), reading(429, 0)].map(exchangeOf);
    expect(evaluateRule('rate-plan-window', exchanges, { perMinute: 3, bursts: [2], preflighted: false }, contract).holds).toBe(false);
    expect(evaluateRule('rate-plan-window', exchanges, { perMinute: 3, bursts: [3], preflighted: 'yes' }, contract).holds).toBe(false);
    expect(evaluateRule('rate-plan-window', exchanges, { perMinute: 3, bursts: [0, 3], preflighted: false }, contract).holds).toBe(false);
  });
});
