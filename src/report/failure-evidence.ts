import type { Finding } from '../checks/check-types.ts';
import type { Exchange } from '../client/exchange.ts';
import type { ConformanceMeta } from './test-meta.ts';
import { failureMark } from './deviations.ts';
import { evidenceByNeed } from './evidence-headers.ts';
import type { FailureDetail, RequirementResult, TestOutcome } from './report-types.ts';

/** Exchanges shown for a failing test: its last ones, where the failure happened. */
const LAST_EXCHANGES = 3;
/** Distinct failures kept per requirement; the rest are counted, so one broken header cannot flood the report. */
export const MAX_FAILURES_PER_REQUIREMENT = 8;

/**
 * The failure a test recorded, with the exchanges it was decided on as evidence (the response headers
 * its words do not name by length and hash: evidence-headers.ts) and the last of them as the curl line. A check that named none (or a harness failure) falls back on the test's last exchanges,
 * and the report says so: that evidence shows where the test stopped, not what proved the failure.
 */
export function testFailure(test: TestOutcome, meta: ConformanceMeta): FailureDetail {
  const failure = meta.failure;
  const deciding = (failure?.exchangeSeqs ?? []).map((seq) => meta.exchanges.find((e) => e.seq === seq)).filter((e): e is Exchange => e !== undefined);
  const decided = deciding.length > 0;
  const evidence = decided ? deciding : meta.exchanges.slice(-LAST_EXCHANGES);
  const last = evidence.at(-1);
  const words = { message: failure?.message ?? test.errors[0] ?? 'the test failed', expected: failure?.expected, actual: failure?.actual };
  return {
    origin: 'test',
    testId: test.id,
    testName: test.name,
    code: failure?.code,
    ...words,
    occurrences: 1,
    property: meta.property ? { ...meta.property } : undefined,
    evidence: evidence.map((exchange) => evidenceByNeed(exchange, words)),
    evidenceBasis: decided ? 'decided' : 'last-exchanges',
    curl: last?.curl,
  };
}

interface FindingSighting {
  test: TestOutcome;
  finding: Finding;
  exchange: Exchange | undefined;
}

/**
 * Findings that name `requirementId`, from every test, grouped by what was expected and seen: a header
 * missing on 500 responses is one failure seen 500 times, with the first response as its evidence.
 */
export function findingFailures(requirementId: string, tests: readonly TestOutcome[]): FailureDetail[] {
  const groups = new Map<string, { first: FindingSighting; count: number }>();
  for (const test of tests) {
    const meta = test.meta;
    if (!meta) continue;
    for (const finding of meta.findings) {
      if (finding.requirementId !== requirementId) continue;
      const key = `${finding.check}\u0000${finding.expected}\u0000${finding.actual}`;
      const group = groups.get(key);
      if (group) {
        group.count += 1;
        continue;
      }
      const exchange = meta.exchanges.find((e) => e.seq === finding.exchangeSeq);
      groups.set(key, { first: { test, finding, exchange }, count: 1 });
    }
  }
  return [...groups.values()].map(({ first, count }) => {
    const words = {
      check: first.finding.check,
      message: `${first.finding.check}: expected ${first.finding.expected}, got ${first.finding.actual}`,
      expected: first.finding.expected,
      actual: first.finding.actual,
    };
    return {
      origin: 'finding' as const,
      testId: first.test.id,
      testName: first.test.name,
      ...words,
      occurrences: count,
      evidence: first.exchange ? [evidenceByNeed(first.exchange, words)] : [],
      evidenceBasis: 'decided' as const,
      curl: first.exchange?.curl,
    };
  });
}

/**
 * Keeps the first failures (tests before findings) and counts the rest. The first failure of each mark
 * (a failing test, a check that fired) is kept before a second one of any, so a baseline written from
 * the report (--update-baseline) lists every mark the verdict was decided on, up to the cap.
 */
export function capFailures(failures: FailureDetail[]): { failures: FailureDetail[]; omitted: number } {
  if (failures.length <= MAX_FAILURES_PER_REQUIREMENT) return { failures, omitted: 0 };
  const firstOfMark = new Map<string, FailureDetail>();
  for (const failure of failures) if (!firstOfMark.has(failureMark(failure))) firstOfMark.set(failureMark(failure), failure);
  const firsts = [...firstOfMark.values()];
  const others = failures.filter((failure) => !firsts.includes(failure));
  const kept = new Set([...firsts, ...others].slice(0, MAX_FAILURES_PER_REQUIREMENT));
  return { failures: failures.filter((failure) => kept.has(failure)), omitted: failures.length - kept.size };
}

/** A requirement's first failure in one line ("expected …, got …"), or its reason when it has none. */
export function failureLine(requirement: Pick<RequirementResult, 'failures' | 'reason'>): string {
  const failure = requirement.failures[0];
  if (!failure) return requirement.reason ?? '';
  return failure.expected && failure.actual ? `expected ${failure.expected}, got ${failure.actual}` : failure.message;
}
