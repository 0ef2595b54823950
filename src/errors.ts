/**
 * Every error the project throws, each with a stable `code`.
 *
 * Two families that must never be confused:
 * - ConformanceFailure: the target broke a requirement. It decides a verdict.
 * - HarnessError: the suite itself, its configuration or the environment failed (bad flag, unreachable
 *   target, budget spent, a target too broken to test). It makes the run incomplete, never "not conformant".
 */

/** Every HarnessError code, each stable: scripts and reports rely on them. */
export const HARNESS_ERROR_CODES = [
  'ERR_CONFIG',
  'ERR_SPEC',
  'ERR_TARGET_UNREACHABLE',
  'ERR_TARGET_TIMEOUT',
  /** The preflight: the key got 401 on listPets. */
  'ERR_KEY_REFUSED',
  /** The preflight: the target does not answer like an Animal Store API (no JSON, an HTML page). */
  'ERR_NOT_ANIMAL_STORE',
  /** The preflight: the base URL answers 404 or redirects: check --target. */
  'ERR_WRONG_BASE_URL',
  'ERR_RESPONSE_TOO_LARGE',
  'ERR_BUDGET_EXHAUSTED',
  'ERR_RATE_LIMITED',
  'ERR_ABORTED',
  'ERR_PRECONDITION',
  /** A suite test ended without asserting anything: it must never count as a pass. */
  'ERR_NO_ASSERTION',
  /** An operation got no answer (time-out, reset) several times in a row: the suite stopped sending it. */
  'ERR_OPERATION_BROKEN',
  /** The target's 429s contradicted its own X-RateLimit-Remaining several times: the suite stopped waiting. */
  'ERR_RATE_LIMIT_CONTRADICTED',
  /** A 429's Retry-After outlasted its own X-RateLimit-Reset by far more than the run may wait: RATE-012's failure. */
  'ERR_RETRY_AFTER_CONTRADICTED',
  /** The run reached --max-duration (MAX_DURATION) before every test had run. */
  'ERR_DEADLINE',
  /** --fail-fast: the run stopped at the first failure that decides the verdict; the rest did not run. */
  'ERR_FAIL_FAST',
  /** --merge-reports: the blobs are not the shards of one run (another seed, target, profile, a shard missing). */
  'ERR_SHARD_MISMATCH',
  'ERR_INTERNAL',
] as const;

export type HarnessErrorCode = (typeof HARNESS_ERROR_CODES)[number];

export function isHarnessErrorCode(code: unknown): code is HarnessErrorCode {
  return typeof code === 'string' && (HARNESS_ERROR_CODES as readonly string[]).includes(code);
}

export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  readonly code: HarnessErrorCode;
  constructor(code: HarnessErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export const CONFORMANCE_FAILURE_CODE = 'ERR_CONFORMANCE' as const;

/** The target broke requirement `requirementId`; `expected`/`actual` are short human sentences. */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  readonly code = CONFORMANCE_FAILURE_CODE;
  readonly requirementId: string;
  readonly expected: string;
  readonly actual: string;
  /** The exchanges (by seq) the failure was decided on: the report's evidence and curl line. */
  readonly exchangeSeqs: readonly number[];
  constructor(requirementId: string, expected: string, actual: string, exchangeSeqs: readonly number[] = []) {
    super(`${requirementId}: expected ${expected}, got ${actual}`);
    this.requirementId = requirementId;
    this.expected = expected;
    this.actual = actual;
    this.exchangeSeqs = exchangeSeqs;
  }
}

export function isHarnessError(error: unknown): error is HarnessError {
  return error instanceof Error && error.name === 'HarnessError' && typeof (error as HarnessError).code === 'string';
}

export function isConformanceFailure(error: unknown): error is ConformanceFailure {
  return error instanceof Error && (error as ConformanceFailure).code === CONFORMANCE_FAILURE_CODE;
}
