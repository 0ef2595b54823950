import type { Level } from '../catalog/catalog.ts';
import type { Finding } from '../checks/check-types.ts';
import type { Exchange } from '../client/exchange.ts';

/**
 * Why a test did not judge its requirement, as a stable code the reporter decides on (never parse the
 * text). Every code means "untested": the verdict model treats them alike; the code says how to cover it.
 */
export type SkipCode =
  /** Left out by --only. */
  | 'not-selected'
  /** The profile leaves it out (it needs a more thorough profile). */
  | 'profile'
  /** --read-only: the test would create a pet. */
  | 'read-only'
  /** --no-exhaust: the test would spend the rate limit on purpose. */
  | 'no-exhaust'
  /** The request budget ran out or would run out. */
  | 'budget'
  /** The key's limit is too large to exhaust within the budget (give --exhaust-key). */
  | 'key-too-large'
  /** The target did not provide what the test needs (a pet to read, a header to judge). */
  | 'precondition'
  /** The run's time for rate-limit waits or its deadline passed. */
  | 'deadline'
  /**
   * The test passed on what the target sent, but the log holds that answer redacted (it held text like
   * the API key), and on what the log holds it would not: a pass the log cannot prove is untested.
   */
  | 'unprovable';

export const SKIP_CODES: readonly SkipCode[] = [
  'not-selected',
  'profile',
  'read-only',
  'no-exhaust',
  'budget',
  'key-too-large',
  'precondition',
  'deadline',
  'unprovable',
];

/**
 * One judgment of a test, as data a verifier can re-evaluate on the exchange it names (by seq): a status
 * allowed (ctx.expectStatus), a named rule of src/checks/judgment-rules.ts with its params (ctx.judge),
 * evaluated again on the exchanges it names, or a check whose condition the suite alone knows (ctx.check
 * with evidence): of that one only the exchanges it was decided on can be checked.
 */
export type Judgment =
  | { kind: 'status'; exchange: number; allowed: number[] }
  | { kind: 'check'; exchanges: number[] }
  | { kind: 'rule'; rule: string; params: Record<string, unknown>; exchanges: number[] };

/** What a conformance test hands the reporter through vitest's `task.meta.conformance`. */
export interface ConformanceMeta {
  requirementId: string;
  level: Level;
  area: string;
  /** Set when the test did not run its checks: read-only mode, budget spent, opt-out, --only. */
  skipReason?: string;
  /** Set with skipReason: why, as a code. */
  skipCode?: SkipCode;
  /** Set when the test failed. kind=conformance blames the target, kind=harness makes the run incomplete. */
  failure?: {
    kind: 'conformance' | 'harness';
    code: string;
    message: string;
    expected?: string;
    actual?: string;
    /** The exchanges the failure was decided on (their seq); absent when the check named none. */
    exchangeSeqs?: number[];
  };
  /** Always-on check violations seen during this test, each naming the requirement it breaks. */
  findings: Finding[];
  /**
   * Always-on checks that passed on an answer the target sent and fail on what the log holds of it
   * (redacted): the log cannot prove their requirement, which is untested (`unprovable`), never passed.
   */
  unprovable?: Array<{ check: string; requirementId: string; exchangeSeq: number }>;
  /** Judgments that named the response(s) they were decided on: what the test observed. */
  observed?: number;
  /** Those judgments as data, in the order they were made (see Judgment). */
  judgments?: Judgment[];
  /**
   * Set by ctx.observable(false, …): the checks could not have failed on what the target holds, so the
   * test ends skipped with this reason and code, never passed (a failure found still wins).
   */
  unobservable?: { reason: string; code: SkipCode };
  /** What the test saw that a reader should know, e.g. "RateLimit not sent" (shown with its requirement). */
  notes?: string[];
  /**
   * Every exchange of the test; bodies are kept only for failing tests and the last few exchanges. An
   * exchange another test made and this one judged too (a shared measurement) carries `sharedFrom`.
   */
  exchanges: Exchange[];
  /** Property-based tests: how many cases ran, and on failure the replayable counterexample. */
  property?: {
    seed: number;
    numRuns: number;
    /** The input families sent first, one case each (see PropertyFamily). */
    families?: string[];
    path?: string;
    counterexample?: string;
    shrinks?: number;
  };
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: ConformanceMeta;
  }
}
