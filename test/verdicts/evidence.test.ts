import { describe, test } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import type { ConformanceReport, FailureDetail } from '../../src/report/report-types.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * The evidence of a failure is the exchange it was decided on, and "#n" names one request in a report.
 * Each case runs the embedded reference with a fault and looks at the failure the fault causes.
 */

const RUN_TIMEOUT_MS = 180_000;

function failuresOf(report: ConformanceReport | undefined, id: string): FailureDetail[] {
  return report?.requirements.find((r) => r.id === id)?.failures ?? [];
}

/** Every exchange in the report, wherever it appears (tests, evidence), with the number it carries. */
function allExchanges(report: ConformanceReport): Exchange[] {
  return report.requirements.flatMap((r) => [...r.failures.flatMap((f) => f.evidence)]);
}

describe('failure evidence', () => {
  test(
    'error-status-mismatch: ERR-002 shows the error response whose body disagrees, and its curl line',
    async ({ expect, onTestFinished }) => {
      const run = await runCliInTest(
        { onTestFinished },
        ['--profile', 'standard', '--seed', '11', '--reference-faults', 'error-status-mismatch', '--only', 'errors'],
        {
          timeoutMs: RUN_TIMEOUT_MS,
          label: 'evidence-err',
        },
      );
      const failures = failuresOf(run.report, 'ERR-002');
      expect(failures.length, run.stdout.slice(-1500)).toBeGreaterThan(0);
      // Whichever caught it (the test, or the always-on check on a response), the evidence is that response.
      for (const failure of failures) {
        expect(failure.evidenceBasis).toBe('decided');
        const deciding = failure.evidence.at(-1);
        // The answer judged: an error status whose body says 400 although the HTTP status is not 400.
        expect(deciding?.response?.status).not.toBe(400);
        expect(deciding?.response?.body).toContain('"status":400');
        expect(failure.curl).toBe(deciding?.curl);
      }
      expect(failures.map((f) => f.origin)).toContain('test');
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'id-reuse: INT-003 shows both answers that carried the same id; numbers are unique in the run',
    async ({ expect, onTestFinished }) => {
      const run = await runCliInTest({ onTestFinished }, ['--profile', 'standard', '--seed', '12', '--reference-faults', 'id-reuse'], {
        timeoutMs: RUN_TIMEOUT_MS,
        label: 'evidence-ids',
      });
      const report = run.report;
      expect(report, run.stdout.slice(-1500)).toBeDefined();
      const failure = failuresOf(report, 'INT-003').find((f) => f.origin === 'test' && /assigned twice/.test(f.actual ?? ''));
      expect(failure, JSON.stringify(failuresOf(report, 'INT-003').map((f) => f.actual))).toBeDefined();
      expect(failure?.evidenceBasis).toBe('decided');
      expect(failure?.evidence).toHaveLength(2);
      const ids = failure?.evidence.map((e) => /"id":\s*(\d+)/.exec(e.response?.body ?? '')?.[1]);
      expect(ids?.[0]).toBeDefined();
      expect(ids?.[0]).toBe(ids?.[1]);
      // One number, one request: the same number never names two different requests.
      const byNumber = new Map<number, string>();
      for (const exchange of allExchanges(report as ConformanceReport)) {
        const identity = `${exchange.startedAt} ${exchange.request.method} ${exchange.request.url}`;
        expect(byNumber.get(exchange.seq) ?? identity, `#${exchange.seq}`).toBe(identity);
        byNumber.set(exchange.seq, identity);
      }
      expect(byNumber.size).toBeGreaterThan(1);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'ratelimit-429-at-half: every exhaustion test that fails carries the exchanges it judged, though only one made them',
    async ({ expect, onTestFinished }) => {
      const run = await runCliInTest(
        { onTestFinished },
        ['--profile', 'standard', '--seed', '13', '--reference-faults', 'ratelimit-429-at-half', '--only', 'RATE-004'],
        {
          timeoutMs: RUN_TIMEOUT_MS,
          label: 'evidence-429',
        },
      );
      const failure = failuresOf(run.report, 'RATE-004').find((f) => f.origin === 'test');
      expect(failure, run.stdout.slice(-1500)).toBeDefined();
      expect(failure?.evidenceBasis).toBe('decided');
      // The response that still allowed requests, then the 429 that came anyway.
      expect(failure?.evidence.map((e) => e.response?.status)).toEqual([200, 429]);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
