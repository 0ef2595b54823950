import type { Level, Requirement } from '../catalog/catalog.ts';
import type { Exchange } from '../client/exchange.ts';
import type { ConformanceMeta, Judgment, SkipCode } from './test-meta.ts';
import type { PlanName } from '../config/plans.ts';
import type { RunInfo } from './run-info.ts';

/**
 * The report as data: what buildReport() returns, what conformance.json holds (spec/report.schema.json)
 * and what every renderer reads. Nothing here is a bigint: bodies are text, numbers are counts and times.
 */

export const REPORT_FORMAT = 'animal-store-conformance-report' as const;
export const REPORT_FORMAT_VERSION = 1 as const;

/**
 * pass: every test ran and passed. partial: some passed, the rest were skipped (untested). skipped: none
 * ran (untested). not-covered: out of scope, the interface does not show it.
 */
export type RequirementVerdict = 'pass' | 'fail' | 'warn' | 'deviation' | 'partial' | 'skipped' | 'not-covered';
/**
 * conformant: every MUST in scope tested and passed. not-conformant: a MUST failed (or a SHOULD, under --strict). partial: nothing failed,
 * some MUST in scope untested. incomplete: the run itself could not be completed.
 */
export type OverallVerdict = 'conformant' | 'not-conformant' | 'partial' | 'incomplete';
export const OVERALL_VERDICTS: readonly OverallVerdict[] = ['conformant', 'not-conformant', 'partial', 'incomplete'];
export const REQUIREMENT_VERDICTS: readonly RequirementVerdict[] = ['pass', 'fail', 'warn', 'deviation', 'partial', 'skipped', 'not-covered'];

/**
 * Why a requirement in scope is untested: a test's skip code, or what kept every test from running
 * (no-test: the suite ran none; shard: another shard holds it; run-problem: the run stopped first;
 * suite-error: its test failed through the suite's fault; no-plan: it needs the key's plan, give --plan).
 */
export type UntestedCode = SkipCode | 'no-test' | 'shard' | 'run-problem' | 'suite-error' | 'no-plan';

/** One requirement in scope that the run did not prove, with how a user can cover it. */
export interface UntestedRequirement {
  id: string;
  level: Level;
  code: UntestedCode;
  reason: string;
  cover: string;
  /** A baseline entry this requirement is untested behind (its failure kept the test from starting): require-complete accepts it. */
  acceptedBy?: string;
}
export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'MAY', 'ADVISORY'];

/** One vitest test as the reporter saw it. */
export interface TestOutcome {
  /** vitest's test id. */
  id: string;
  /** Full title, starting with the requirement id. */
  name: string;
  file: string;
  state: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  /** Error messages of a failed test. */
  errors: string[];
  /** vitest's skip note (ctx.skip(note)) or why it did not run; meta.skipReason takes precedence. */
  skipNote?: string;
  /**
   * The run ended before this test ran (interrupted, its deadline, --fail-fast, a shard stopped, its file
   * never started): untested through the run, never a precondition of the target. Decided from the test's
   * state (vitest's pending, or a skip the harness gave no code), never from a note's text.
   */
  notRun?: true;
  meta?: ConformanceMeta;
}

/** A requirement an implementer declares it does not meet, with why (the expected-deviations file). */
/**
 * A known failure the gate accepts (an expected deviation, or a baseline entry): by `id`, with why; until
 * `expires` (YYYY-MM-DD, inclusive), and, with a `fingerprint`, only while the failure looks the same.
 */
export interface Deviation {
  id: string;
  reason: string;
  expires?: string;
  fingerprint?: string;
  /** baseline: listed with --baseline, a known failure the CI gate accepts (exit 0) while it applies. */
  source?: 'baseline';
}

/** Something that kept the suite from judging: it makes the run incomplete, never "not conformant". */
export interface HarnessProblem {
  code: string;
  message: string;
  testId?: string;
  requirementId?: string;
}

export interface Verdict {
  overall: OverallVerdict;
  /** CONFORMANT, NOT CONFORMANT, NOT CONFORMANT (known deviations only) or INCOMPLETE. */
  label: string;
  /** One sentence. */
  why: string;
  exitCode: 0 | 1 | 2;
  /** Not conformant only through requirements the implementer declared as deviations. */
  knownDeviationsOnly: boolean;
  /** How much of the scope the run proved: MUSTs (and SHOULDs under --strict) in scope, and which went untested. */
  scope: VerdictScope;
  /** What a reader must not miss besides the verdict: listed deviations that pass, scope limits. */
  notes: string[];
}

export interface VerdictScope {
  /** MUST requirements in scope: the catalog less what the interface does not show. */
  mustInScope: number;
  /** Of those, tested: passed, failed or deviating as declared. */
  mustTested: number;
  /** Under --strict: SHOULDs in scope and tested. */
  shouldInScope?: number;
  shouldTested?: number;
  /** Every MUST in scope (and SHOULD under --strict) left untested, with its reason and how to cover it. */
  untested: UntestedRequirement[];
}

export interface TestSummary {
  id: string;
  name: string;
  file: string;
  state: TestOutcome['state'];
  durationMs: number;
  /** Requests this test sent. */
  requests: number;
  skipReason?: string;
  /** Why it was skipped, as a stable code (see SkipCode). */
  skipCode?: SkipCode;
  /** The run ended before this test ran (see TestOutcome.notRun). */
  notRun?: true;
  /** Judgments that named the response(s) they were decided on: what the test observed. */
  observed?: number;
  /** The exchanges this test sent, by their number in the run (the HAR entry's `_seq`). */
  exchanges?: number[];
  /** Exchanges another test sent that this one judged too (a shared measurement). */
  shared?: number[];
  /** Its judgments as data, on the exchanges they name (see Judgment): what `rejudge` re-evaluates. */
  judgments?: Judgment[];
  /** The always-on checks' findings on its exchanges: `rejudge` re-runs the checks and expects exactly these. */
  findings?: TestFinding[];
  /**
   * Checks that found nothing on the answer the target sent and fail on what the log holds of it (the
   * answer redacted): their requirement is untested (`unprovable`), and rejudge expects exactly these.
   */
  unprovable?: TestFinding[];
  /** A failed test: whom it blames (conformance: the target; harness: the suite), so a verifier can re-derive the verdict. */
  failureKind?: 'conformance' | 'harness';
  property?: { seed: number; numRuns: number; families?: string[] };
}

/** An always-on check's finding as the report records it for re-judging: the check, its requirement, the exchange. */
export interface TestFinding {
  check: string;
  requirementId: string;
  exchange: number;
}

/** Why a requirement failed: a failing test or an always-on check, with the exchanges that show it. */
export interface FailureDetail {
  origin: 'test' | 'finding';
  testId: string;
  testName: string;
  /** The always-on check's name, for a finding. */
  check?: string;
  code?: string;
  message: string;
  expected?: string;
  actual?: string;
  /** The same finding seen on this many responses; the evidence is the first. */
  occurrences: number;
  property?: { seed: number; numRuns: number; families?: string[]; path?: string; counterexample?: string; shrinks?: number };
  /** Redacted exchanges: the ones the failure was decided on, or the one the finding was seen on. */
  evidence: Exchange[];
  /**
   * decided: the evidence is the exchange(s) the failure was decided on. last-exchanges: the check named
   * none, so the evidence is where the test stopped (its last exchanges), which may not be what proved it.
   */
  evidenceBasis?: 'decided' | 'last-exchanges';
  /** Reproduce with: this line (uses $API_KEY). */
  curl?: string;
}

/** A catalog requirement with its verdict; `reason` says why skipped or not covered, or a deviation's why. */
export interface RequirementResult extends Requirement {
  verdict: RequirementVerdict;
  /** For a partial or skipped requirement in scope: why it is untested, as a code. */
  untestedCode?: UntestedCode;
  /** For a deviation: what the verdict would have been (fail or warn). */
  deviationOf?: 'fail' | 'warn';
  notes: string[];
  tests: TestSummary[];
  failures: FailureDetail[];
  /** Failures beyond the ones kept, so the report stays readable. */
  omittedFailures: number;
}

export type DeviationStatus = 'applied' | 'requirement-passes' | 'not-tested' | 'unknown-requirement' | 'expired' | 'different-failure';

export interface DeviationNote extends Deviation {
  status: DeviationStatus;
}

export interface CoverageCell {
  status: string;
  documented: boolean;
  /** Documented by the spec as a reasonable choice the interface does not state (x-not-stated). */
  notStated: boolean;
  count: number;
}

/** One operation: how many responses of each status were seen, documented ones first. */
export interface CoverageRow {
  operationId: string;
  method: string;
  path: string;
  cells: CoverageCell[];
  total: number;
}

export interface RateLimitPoint {
  /** Epoch ms the request was sent. */
  startedAt: number;
  remaining: number;
  limit?: number;
}

export interface Traffic {
  /** Every request sent, all tests together. */
  requestCount: number;
  /** Requests that got no HTTP answer (timeout, reset). */
  transportErrors: number;
  /** 429s the client waited out (pacing, not blamed on the target). */
  retries: number;
  /** Requests outside listPets, createPet and getPet. */
  otherRequests: number;
  /** Requests that spent a key other than the main one: the exhaustion key (--exhaust-key or the embedded reference's own) and the plan keys (--plan-key, the embedded Free key). */
  exhaustKeyRequests?: number;
  /** With --plan: the main key's requests against the plan's daily quota (perDay absent for Enterprise). */
  dailyQuota?: { plan: PlanName; perDay?: number; used: number };
  rateLimit: RateLimitPoint[];
}

export type LevelCounts = Record<Level, Record<RequirementVerdict, number>>;

export interface AreaSummary {
  id: string;
  title: string;
}

export interface ConformanceReport {
  format: typeof REPORT_FORMAT;
  formatVersion: typeof REPORT_FORMAT_VERSION;
  run: RunInfo;
  verdict: Verdict;
  counts: LevelCounts;
  areas: AreaSummary[];
  requirements: RequirementResult[];
  harnessErrors: HarnessProblem[];
  deviations: DeviationNote[];
  coverage: CoverageRow[];
  traffic: Traffic;
}
