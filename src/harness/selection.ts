import type { Requirement } from '../catalog/catalog.ts';
import { type Profile, PROFILE_RULES } from '../config/profiles.ts';
import { isSelected, notSelectedReason } from '../config/requirement-selection.ts';
import type { SkipCode } from '../report/test-meta.ts';
import type { RunContext } from './run-context.ts';

/** What a test needs from the run; a test the run cannot afford or may not do is skipped with a reason. */
export interface ConformanceOptions {
  /** The test calls createPet (skipped in read-only mode). */
  writes?: boolean;
  /** The test spends the rate limit on purpose (skipped with --no-exhaust). */
  exhausts?: boolean;
  /** The cheapest profile that runs this test; default standard. */
  tier?: Profile;
  /** Per-test timeout in ms; default the project's. */
  timeoutMs?: number;
}

export interface SkipDecision {
  code: SkipCode;
  reason: string;
}

/** Why this test does not run in this run, or undefined when it runs. */
export function skipDecision(run: RunContext, requirement: Requirement, options: ConformanceOptions, testId?: string): SkipDecision | undefined {
  if (run.replay && (testId === undefined || !(testId in run.replay))) {
    return { code: 'not-selected', reason: 'not a failing test of the replayed report (--replay)' };
  }
  if (!isSelected(run.only, requirement)) return { code: 'not-selected', reason: notSelectedReason(run.only) };
  if (Date.now() > run.deadline) {
    return { code: 'deadline', reason: `the run reached its --max-duration before this test started` };
  }
  const tier = options.tier ?? 'standard';
  if (PROFILE_RULES[tier].rank > PROFILE_RULES[run.profile].rank)
    return { code: 'profile', reason: `not in the ${run.profile} profile (needs --profile ${tier})` };
  if (options.writes && run.readOnly) return { code: 'read-only', reason: 'read-only mode: the test would call createPet' };
  if (options.exhausts && !run.exhaust) return { code: 'no-exhaust', reason: 'rate-limit exhaustion opted out (--no-exhaust)' };
  return undefined;
}
