import type { Profile } from '../config/profiles.ts';
import type { JudgedByEveryPass, JudgedOnEveryExchange } from './coverage.ts';
import type { StatedParamsTables } from './stated-params.ts';
import type { OverallVerdict } from '../report/report-types.ts';

/**
 * What rejudge holds a run's tests to: the judgments every pass of a requirement makes, and those made
 * on every exchange of an operation (src/certificate/coverage.ts; this suite's tables by default). The
 * project's own tests give empty ones for runs they make up, whose tests are not this suite's and
 * judge by a placeholder.
 */
export interface RejudgeOptions extends StatedParamsTables {
  judgedByEveryPass?: JudgedByEveryPass;
  judgedOnEveryExchange?: JudgedOnEveryExchange;
  everyExchangeNamed?: readonly string[];
  /** The fewest requests a passed test of a requirement sends (src/certificate/request-counts.ts). */
  requestsOfEveryPass?: Readonly<Record<string, number>>;
  /** The cases a passed property test generates at each profile (request-counts.ts's GENERATED_CASES). */
  casesOfEveryPass?: Readonly<Record<string, Readonly<Record<Profile, number>>>>;
}

/** What re-judging a report from its exchange log gives. */
export interface Rejudgement {
  /** Every place the report claims something the log does not give, naming the test or requirement. */
  differences: string[];
  /** Passed tests the log does not prove (no judged exchange, a judgment it fails, an exchange not logged). */
  refusedTests: string[];
  /** The run's verdict decided from the re-judged outcomes. */
  verdict: OverallVerdict | 'unknown';
  /** What was re-computed, and what was taken as recorded. */
  stats: RejudgeStats;
}

export interface RejudgeStats {
  entries: number;
  /** Entries every check ran on again. */
  checkedWhole: number;
  /** Entries whose body checks were not re-run: the body was cut or not exactly recorded. */
  headersOnly: number;
  /** Entries no check ran on again: the framing probe's, summarised ones, transport failures. */
  notChecked: number;
  /** Of those, summarised: their headers and body left out (a passing test's evidence outside --certify). */
  summarised: number;
  /** Judgments of passed tests re-evaluated: statuses compared, rules evaluated, exchanges found. */
  judgments: number;
  /** Of those, rule judgments (ctx.judge) evaluated again on their entries. */
  rules: number;
  /** Rule judgments on summarised entries (a report directory's log, which verify and the merge refuse): taken as recorded. */
  rulesTakenAsRecorded: number;
  /** Rule judgments on entries the log does not keep whole (a body cut, no answer): their tests are unproven. */
  rulesUnproven: number;
  /** Check judgments (ctx.check): only their exchanges are found, the condition is taken as recorded. */
  checks: number;
}
