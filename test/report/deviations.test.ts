import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { failureFingerprint, isOlderFingerprint, parseExpectedDeviations, renderBaseline, unlistedMarks } from '../../src/report/deviations.ts';
import { MAX_FAILURES_PER_REQUIREMENT, capFailures } from '../../src/report/failure-evidence.ts';
import type { Deviation, FailureDetail } from '../../src/report/report-types.ts';
import { mergeDeviations } from '../../src/report/shard-record.ts';

describe('expected deviations file', () => {
  test.each([
    ['YAML list', '- id: AUTH-009\n  reason: Our gateway strips WWW-Authenticate.\n'],
    ['JSON list', '[{"id":"AUTH-009","reason":"Our gateway strips WWW-Authenticate."}]'],
    ['object with deviations', 'deviations:\n  - { id: AUTH-009, reason: Our gateway strips WWW-Authenticate. }\n'],
  ])('reads a %s', (_title, text) => {
    expect(parseExpectedDeviations(text)).toEqual([{ id: 'AUTH-009', reason: 'Our gateway strips WWW-Authenticate.' }]);
  });

  test('an empty file declares nothing', () => {
    expect(parseExpectedDeviations('')).toEqual([]);
  });

  test.each([
    ['not a list', 'id: AUTH-009', /expected a list/],
    ['an entry without reason', '- id: AUTH-009', /AUTH-009 needs a reason/],
    ['an entry without id', '- reason: because', /entry 1 has no id/],
    ['a duplicate', '- { id: A-001, reason: r }\n- { id: A-001, reason: r }', /listed twice/],
    ['broken YAML', '- { id: [', /not YAML or JSON/],
  ])('rejects %s as a configuration error', (_title, text, message) => {
    expect(() => parseExpectedDeviations(text)).toThrow(expect.objectContaining({ code: 'ERR_CONFIG', message: expect.stringMatching(message) }));
  });
});

describe('baseline fingerprints', () => {
  const failure = (origin: 'test' | 'finding', name: string): FailureDetail => ({
    origin,
    testId: `id-${name}`,
    testName: origin === 'test' ? name : 'some test that saw the response',
    ...(origin === 'finding' ? { check: name } : {}),
    message: 'm',
    occurrences: 1,
    evidence: [],
  });
  const ownTest = failure('test', 'ERR-002 the status matches');
  const check = failure('finding', 'error-status-matches');
  const otherCheck = failure('finding', 'error-code-present');
  const whole = failureFingerprint([ownTest, check]);

  test('one hash per mark: a shard that saw part of the failure judges it as the merge does', () => {
    expect(whole).toMatch(/^[0-9a-f]{16} [0-9a-f]{16}$/);
    expect(unlistedMarks([ownTest, check], whole)).toEqual([]);
    // What one shard alone sees: the check fired on its files' responses, the test ran elsewhere.
    expect(unlistedMarks([check], whole)).toEqual([]);
    expect(unlistedMarks([ownTest], whole)).toEqual([]);
    // Another check firing is a different failure, in a shard as in the merge.
    expect(unlistedMarks([check, otherCheck], whole)).toEqual(['check:error-code-present']);
    // Neither where it was seen nor how often changes it.
    expect(failureFingerprint([{ ...check, testName: 'another test', occurrences: 9 }, ownTest])).toBe(whole);
  });

  test('a fingerprint of the older form (one hash of all marks) is not accepted, and is recognised so the run can say so', () => {
    const older = createHash('sha256').update(['check:error-status-matches', 'test:ERR-002 the status matches'].join('\n')).digest('hex').slice(0, 16);
    expect(unlistedMarks([ownTest, check], older)).toHaveLength(2);
    expect(isOlderFingerprint([ownTest, check], older)).toBe(true);
    expect(isOlderFingerprint([ownTest, check], whole)).toBe(false);
  });

  test('written quoted, read back in any order or form; a hash of digits alone stays text', () => {
    const entry = { id: 'ERR-002', reason: 'r', fingerprint: '1234567890123456 abcdefabcdefabcd' };
    expect(parseExpectedDeviations(renderBaseline([entry]))).toEqual([entry]);
    const [listed] = parseExpectedDeviations('- { id: ERR-002, reason: r, fingerprint: [abcdefabcdefabcd, "1234567890123456"] }');
    expect(listed?.fingerprint).toBe('1234567890123456 abcdefabcdefabcd');
    expect(() => parseExpectedDeviations('- { id: ERR-002, reason: r, fingerprint: "abc xyz" }')).toThrow(/fingerprint that is not hex/);
  });
});

describe('the known failures of a merge', () => {
  const declared: Deviation = { id: 'AUTH-009', reason: 'gateway' };
  const listed: Deviation = { id: 'ERR-002', reason: 'known', fingerprint: 'abcdefabcdefabcd', source: 'baseline' };
  const none = { declared: false, baseline: false };

  test("without flags the shards' own; a --baseline given to the merge is applied when the shards had none", () => {
    expect(mergeDeviations([declared, listed], [], none)).toEqual([declared, listed]);
    expect(mergeDeviations([declared], [listed], { declared: false, baseline: true })).toEqual([declared, listed]);
    expect(mergeDeviations([declared, listed], [listed], { declared: false, baseline: true })).toEqual([declared, listed]);
  });

  test('a baseline or expected deviations other than the ones the shards were judged with is refused', () => {
    const other = { ...listed, fingerprint: '0123456701234567' };
    expect(() => mergeDeviations([listed], [other], { declared: false, baseline: true })).toThrow(
      expect.objectContaining({ code: 'ERR_SHARD_MISMATCH', message: expect.stringContaining('--baseline differs') }),
    );
    expect(() => mergeDeviations([listed], [], { declared: false, baseline: true })).toThrow(/--baseline differs/);
    expect(() => mergeDeviations([declared], [], { declared: true, baseline: false })).toThrow(/--expected-deviations differs/);
  });
});

describe('a baseline written from a report whose failures were cut', () => {
  test('every mark stays in the report, so the written fingerprint lists what the verdict is decided on', () => {
    const finding = (check: string, actual: string): FailureDetail => ({
      origin: 'finding',
      testId: 't',
      testName: 't',
      check,
      message: `${check}: ${actual}`,
      actual,
      occurrences: 1,
      evidence: [],
    });
    // One check fires with ten different values before another fires once: the cap keeps eight.
    const all = [...Array.from({ length: 10 }, (_, i) => finding('reset-is-timestamp', `${i}`)), finding('remaining-within-limit', 'x')];
    const { failures, omitted } = capFailures(all);
    expect(failures).toHaveLength(MAX_FAILURES_PER_REQUIREMENT);
    expect(omitted).toBe(all.length - MAX_FAILURES_PER_REQUIREMENT);
    expect(failureFingerprint(failures)).toBe(failureFingerprint(all));
    expect(unlistedMarks(all, failureFingerprint(failures))).toEqual([]);
    // Still in the order they were found.
    expect(failures.at(-1)?.check).toBe('remaining-within-limit');
    expect(failures[0]?.actual).toBe('0');
  });
});
