import { ConformanceFailure, HarnessError, isConformanceFailure, isHarnessError } from '../errors.ts';
import type { ConformanceMeta } from '../report/test-meta.ts';

/** The client's refusals that are a rate-limit requirement's failure: a finding, wherever they surface. */
const RATE_CONTRADICTIONS: Readonly<Partial<Record<string, { requirementId: string; check: string; expected: string }>>> = {
  ERR_RATE_LIMIT_CONTRADICTED: {
    requirementId: 'RATE-004',
    check: 'rate-limit-contradiction',
    expected: 'no 429 while X-RateLimit-Remaining says requests are left',
  },
  ERR_RETRY_AFTER_CONTRADICTED: {
    requirementId: 'RATE-012',
    check: 'retry-after-past-reset',
    expected: 'a first 429 whose Retry-After ends no more than a minute after its X-RateLimit-Reset',
  },
};

/** Writes the failure (or the skip reason) into meta; returns a skip reason when the test should skip. */
export function recordOutcome(meta: ConformanceMeta, error: unknown): string | undefined {
  if (isConformanceFailure(error)) {
    meta.failure = { kind: 'conformance', code: error.code, message: error.message, expected: error.expected, actual: error.actual };
    if (error.exchangeSeqs.length > 0) meta.failure.exchangeSeqs = [...error.exchangeSeqs];
    return undefined;
  }
  if (isHarnessError(error)) {
    if (error.code === 'ERR_OPERATION_BROKEN') {
      // The target stopped answering an operation this test needs: the requirement is not met, with the
      // time-outs as evidence (they are in this run's exchanges), and the rest of the run goes on.
      meta.failure = { kind: 'conformance', code: error.code, message: error.message, expected: 'an answer within --timeout', actual: error.message };
      return undefined;
    }
    const contradiction = RATE_CONTRADICTIONS[error.code];
    if (contradiction) {
      // The contradiction is another requirement's failure; this test could not be judged. A test that
      // sent nothing met it through a measurement it shares (\`once\`): the test that sent the 429 records
      // the finding, on it; one named on no exchange (#0) is a finding rejudge cannot find in the log.
      const last = meta.exchanges.at(-1);
      if (last) meta.findings.push({ ...contradiction, actual: error.message, exchangeSeq: last.seq });
      meta.skipReason = error.message;
      meta.skipCode = 'precondition';
      return error.message;
    }
    if (error.code === 'ERR_BUDGET_EXHAUSTED' || error.code === 'ERR_PRECONDITION') {
      meta.skipReason = error.message;
      meta.skipCode ??= error.code === 'ERR_BUDGET_EXHAUSTED' ? 'budget' : 'precondition';
      return error.message;
    }
    meta.failure = { kind: 'harness', code: error.code, message: error.message };
    return undefined;
  }
  if (isSkip(error)) return undefined;
  if (error instanceof Error && error.name === 'AbortError') {
    meta.failure = { kind: 'harness', code: 'ERR_ABORTED', message: 'the test was cancelled: the run was interrupted or the test timed out' };
    return undefined;
  }
  const message = error instanceof Error ? error.message : String(error);
  // vitest's expect throws AssertionError: the target did not meet what the test asserts.
  const kind = error instanceof Error && error.name === 'AssertionError' ? 'conformance' : 'harness';
  meta.failure = { kind, code: kind === 'conformance' ? 'ERR_CONFORMANCE' : 'ERR_INTERNAL', message };
  return undefined;
}

/** The same error with every key scrubbed from its text; vitest prints it and the reporter keeps it. */
export function redactError(error: unknown, redact: (text: string) => string): unknown {
  if (isConformanceFailure(error)) return new ConformanceFailure(error.requirementId, redact(error.expected), redact(error.actual), error.exchangeSeqs);
  if (isHarnessError(error)) return new HarnessError(error.code, redact(error.message));
  if (error instanceof Error && !isSkip(error)) {
    const copy = new Error(redact(error.message));
    copy.name = error.name;
    return copy;
  }
  return error;
}

function isSkip(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: string }).name === 'SkipError';
}
