import { describe, expect, it } from 'vitest';
import { evidenceByNeed, unreadValue } from '../../src/report/evidence-headers.ts';
import { findingFailures, testFailure } from '../../src/report/failure-evidence.ts';
import { exchange, failed, finding, passed } from '../support/report-builders.ts';

/** A response with the headers a check reads and two it never does (one a hostile echo). */
const HEADERS = {
  'content-type': 'application/json',
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset': '1764301234',
  'x-echo': 'niam_ka.654321_.cba0987',
  server: 'front/1.0',
};
const answered = (seq: number) => exchange(seq, { response: { status: 200, headers: { ...HEADERS }, body: '[]' } });

describe('failing evidence keeps the headers its failure read', () => {
  it('a finding shows the headers it names and Content-Type; the others by length and hash', () => {
    const test = passed('RATE-001', { exchanges: [answered(3)], findings: [finding('RATE-001', 3)] });
    const [failure] = findingFailures('RATE-001', [test]);
    const shown = failure!.evidence[0]!.response!.headers;
    expect(shown['x-ratelimit-remaining']).toBe('0');
    expect(shown['content-type']).toBe('application/json');
    expect(shown['x-echo']).toBe(unreadValue(HEADERS['x-echo']));
    expect(shown['x-echo']).toMatch(/^\(not read by this failure: 23 characters, sha256 [0-9a-f]{16}\)$/);
    expect(shown.server).not.toContain('front');
    // The test's own record, which the exchange log is written from, keeps every header.
    expect(test.meta!.exchanges[0]!.response!.headers['x-echo']).toBe(HEADERS['x-echo']);
  });

  it("a test's failure keeps the headers its message, expected or actual name, in any case or by their last word", () => {
    const test = failed('RATE-004', 'conformance', { exchanges: [answered(5)] });
    test.meta!.failure = {
      kind: 'conformance',
      code: 'ERR_CONFORMANCE',
      message: 'RATE-004: a 429 before the limit',
      expected: 'X-RATELIMIT-LIMIT requests',
      actual: 'Remaining 0 after 12',
      exchangeSeqs: [5],
    };
    const shown = testFailure(test, test.meta!).evidence[0]!.response!.headers;
    expect(shown['x-ratelimit-limit']).toBe('60');
    expect(shown['x-ratelimit-remaining']).toBe('0');
    expect(shown['x-ratelimit-reset']).toBe(unreadValue('1764301234'));
    expect(shown['x-echo']).toBe(unreadValue(HEADERS['x-echo']));
  });

  it('two different values stay told apart, and an exchange without response headers is unchanged', () => {
    expect(unreadValue('a')).not.toBe(unreadValue('b'));
    const bare = exchange(9, { response: { status: 204, headers: {} } });
    expect(evidenceByNeed(bare, { message: 'x' })).toBe(bare);
  });
});
