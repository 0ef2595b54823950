import { describe, expect, it } from 'vitest';
import { FAMILIES, abuseCases, abuseProblems } from '../../bench/lib/abuse-cases.ts';
import { pooled } from '../../bench/lib/abuse-load.ts';
import { rawExchange } from '../../bench/lib/raw-exchange.ts';
import { KEY, startServer } from '../support/reference-server.ts';

// A sample of the abuse bench (`npm run bench -- --only abuse` sends 10,500): each family, in-process.
const PER_FAMILY = 40;

describe('reference server: odd requests (a sample of the abuse bench)', () => {
  it.each(FAMILIES)('%s: every answer is a non-5xx with the rate-limit headers and the Error shape; none hangs', async (family) => {
    const server = await startServer({ anonymousLimits: { perMinute: 1_000_000, perDay: 1_000_000 } });
    const cases = abuseCases(family, PER_FAMILY, KEY, 7);
    const outcomes = await pooled(cases, 8, (abuse) => rawExchange(server.port, abuse.bytes, { timeoutMs: 10_000, head: abuse.head }));
    const problems = outcomes.flatMap((outcome, index) => abuseProblems(outcome, cases[index]!).map((problem) => `${cases[index]!.label}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('the checker flags what a broken server does', () => {
    const headers = new Map([
      ['x-ratelimit-limit', '1'],
      ['x-ratelimit-remaining', '0'],
      ['x-ratelimit-reset', '1'],
    ]);
    const error = JSON.stringify({ code: 'x', message: 'm', status: 400 });
    const ok = { answer: { status: 400, headers, body: error }, closed: false, hung: false, ms: 1 };
    const plain = { head: false, validKey: false };
    expect(abuseProblems(ok, plain)).toEqual([]);
    expect(abuseProblems({ ...ok, answer: { ...ok.answer, status: 500, body: error.replace('400', '500') } }, plain)).toEqual(['status 500']);
    expect(abuseProblems({ ...ok, answer: { ...ok.answer, headers: new Map() } }, plain)).toHaveLength(3);
    expect(abuseProblems({ ...ok, answer: { ...ok.answer, body: 'Bad Request' } }, plain)).toEqual(['not the Error shape']);
    expect(abuseProblems({ ...ok, answer: { ...ok.answer, status: 200, body: '[]' } }, plain)).toEqual(['served without a valid key']);
    expect(abuseProblems({ answer: undefined, closed: false, hung: true, ms: 1 }, plain)).toEqual(['no answer and no close']);
    expect(abuseProblems({ answer: undefined, closed: true, hung: false, ms: 1 }, plain)).toEqual(['closed without an answer']);
  });
});
