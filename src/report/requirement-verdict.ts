import { isOlderFingerprint, unlistedMarks } from './deviations.ts';
import type { Level, Requirement } from '../catalog/catalog.ts';
import { isSelected, notSelectedReason } from '../config/requirement-selection.ts';
import type { Deviation, FailureDetail, HarnessProblem, RequirementVerdict, TestOutcome, UntestedCode } from './report-types.ts';

/** What the verdict of one requirement depends on besides its own tests. */
export interface VerdictContext {
  strict: boolean;
  deviation?: Deviation;
  /** A problem outside any test (unreachable target, aborted run) that kept tests from running. */
  runProblem?: HarnessProblem;
  only?: readonly string[];
  shard?: string;
  /** The key's plan, when the run knows it: requirements that need it are untested otherwise (no-plan). */
  plan?: string;
  /** The run's day (YYYY-MM-DD): a deviation that expired before it no longer applies. */
  today?: string;
  /**
   * Where the log cannot prove what the run saw of this requirement: always-on checks that passed on an
   * answer and fail on its redacted record (`check on #seq`). A pass becomes untested, code unprovable.
   */
  unprovable?: readonly string[];
}

export interface RequirementDecision {
  verdict: RequirementVerdict;
  reason?: string;
  /** Set when the requirement is in scope and was not (fully) tested. */
  untestedCode?: UntestedCode;
  deviationOf?: 'fail' | 'warn';
  notes: string[];
}

const TITLE_ID = /^([A-Z][A-Z0-9]*-\d+)\b/;

/** The requirement a test proves: from its meta, else from the id its title starts with. */
export function requirementIdOf(test: TestOutcome): string | undefined {
  return test.meta?.requirementId ?? TITLE_ID.exec(test.name)?.[1];
}

/**
 * A failed test that is not the target's fault: the harness said so, or the test failed without
 * recording why (no meta, or no classified failure). It makes the run incomplete.
 */
export function harnessFailureOf(test: TestOutcome): HarnessProblem | undefined {
  if (test.state !== 'failed') return undefined;
  const failure = test.meta?.failure;
  if (failure?.kind === 'conformance') return undefined;
  const message = failure?.message ?? test.errors[0] ?? 'the test failed without recording why';
  return { code: failure?.code ?? 'ERR_INTERNAL', message, testId: test.id, requirementId: requirementIdOf(test) };
}

/** A broken requirement's verdict by level: MUST fails; SHOULD warns (fails when strict); MAY and ADVISORY warn, always. */
export function failingVerdict(level: Level, strict: boolean): 'fail' | 'warn' {
  if (level === 'MUST') return 'fail';
  if (level === 'SHOULD' && strict) return 'fail';
  return 'warn';
}

/**
 * One requirement's verdict. Evidence of a violation wins over everything (a finding from any test
 * counts); then requirements out of scope; then harness failures (not proven either way). A requirement
 * passes only when every one of its tests ran and passed; some skipped is `partial`, all skipped (or none
 * ran) is `skipped`, and both count as untested.
 */
export function decideRequirement(
  requirement: Requirement,
  own: readonly TestOutcome[],
  failures: readonly FailureDetail[],
  context: VerdictContext,
): RequirementDecision {
  const notes: string[] = [];
  if (failures.length > 0) {
    const base = failingVerdict(requirement.level, context.strict);
    const deviation = context.deviation;
    if (deviation) {
      if (deviation.expires !== undefined && context.today !== undefined && deviation.expires < context.today) {
        return { verdict: base, notes: [`listed as a known failure until ${deviation.expires}: the entry has expired, so it counts again`] };
      }
      const listed = deviation.fingerprint;
      const unlisted = listed === undefined ? [] : unlistedMarks(failures, listed);
      if (listed !== undefined && unlisted.length > 0) {
        const shown = unlisted.slice(0, 3).join('; ') + (unlisted.length > 3 ? ` and ${unlisted.length - 3} more` : '');
        const older = isOlderFingerprint(failures, listed)
          ? '; the entry has a fingerprint of the older form, one hash of the whole failure: write it again with --update-baseline'
          : '';
        return {
          verdict: base,
          notes: [`listed as a known failure, but this one looks different (its fingerprint does not list ${shown}): it counts${older}`],
        };
      }
      return { verdict: 'deviation', reason: deviation.reason, deviationOf: base, notes: [`known deviation, declared by the implementer (would be ${base})`] };
    }
    return { verdict: base, notes };
  }
  const found = decideWithoutViolation(requirement, own, context, notes);
  const unprovable = context.unprovable ?? [];
  const decided =
    found.verdict === 'pass' && unprovable.length > 0
      ? untested(
          'partial',
          `not proven by the log: it holds the answer redacted (text like the API key), and on what it holds ${unprovable.slice(0, 3).join(', ')}${unprovable.length > 3 ? ` and ${unprovable.length - 3} more` : ''} would fail`,
          'unprovable',
        )
      : found;
  if (context.deviation) {
    notes.push(decided.verdict === 'pass' ? 'deviation listed but requirement passes' : 'deviation listed but requirement was not tested');
  }
  return { ...decided, notes };
}

function decideWithoutViolation(
  requirement: Requirement,
  own: readonly TestOutcome[],
  context: VerdictContext,
  notes: string[],
): Omit<RequirementDecision, 'notes'> {
  if (requirement.coverage === 'not-covered') return { verdict: 'not-covered', reason: requirement.reason ?? 'not covered by the suite' };
  // In scope on every run: a MUST nobody can test without the key's plan is untested, never out of scope.
  if (requirement.needs === 'plan' && !context.plan) {
    return untested('skipped', "untested: the key's plan is not known: give --plan (free, pro, business or enterprise:<perMinute>:<perDay>)", 'no-plan');
  }
  const harness = own.map(harnessFailureOf).find((p) => p !== undefined);
  if (harness) {
    // A test cut short by the run's end (Ctrl-C, --max-duration) is the run's problem, not a suite bug.
    const cutShort = RUN_ENDINGS.has(harness.code);
    const why = cutShort
      ? `not proven: the run ended while its test ran (${harness.code})`
      : `not proven: the suite failed (${harness.code}: ${harness.message})`;
    return untested('skipped', why, cutShort ? 'run-problem' : 'suite-error');
  }
  const skipped = own.filter((t) => t.state === 'skipped');
  const passed = own.filter((t) => t.state === 'passed');
  if (passed.length > 0 && skipped.length === 0) return { verdict: 'pass' };
  if (own.length > 0) {
    const reason = [...new Set(skipped.map(skipReasonOf))].join('; ');
    const code = skipCodeOf(skipped);
    if (passed.length === 0) return untested('skipped', reason, code);
    notes.push(`${passed.length} of ${own.length} tests passed; the others were skipped`);
    return untested('partial', `partially tested: ${skipped.length} of ${own.length} tests skipped (${reason})`, code);
  }
  if (context.runProblem) return untested('skipped', notRunReason(context.runProblem.code), 'run-problem');
  const only = context.only ?? [];
  if (!isSelected(only, requirement)) return untested('skipped', notSelectedReason(only), 'not-selected');
  if (context.shard) return untested('skipped', `not in shard ${context.shard}`, 'shard');
  return untested('skipped', 'no test of this requirement ran', 'no-test');
}

function untested(verdict: 'skipped' | 'partial', reason: string, code: UntestedCode): Omit<RequirementDecision, 'notes'> {
  return { verdict, reason, untestedCode: code };
}

/** Harness codes that mean the run ended under a test, not that the suite is broken. */
const RUN_ENDINGS: ReadonlySet<string> = new Set(['ERR_ABORTED', 'ERR_DEADLINE', 'ERR_FAIL_FAST']);

/** The code that best says how to cover the skipped tests: the first that is not a bare precondition. */
function skipCodeOf(skipped: readonly TestOutcome[]): UntestedCode {
  // By state: a test the run never reached is the run's problem; a skip the harness coded keeps its code.
  const codes = skipped.map((t): UntestedCode => (t.notRun ? 'run-problem' : (t.meta?.skipCode ?? 'precondition')));
  return codes.find((c) => c !== 'precondition') ?? codes[0] ?? 'precondition';
}

function notRunReason(code: string): string {
  if (code === 'ERR_ABORTED') return 'not run: the run was interrupted before this requirement was tested (ERR_ABORTED)';
  return `not run: a harness error kept its test from running (${code})`;
}

export function skipReasonOf(test: TestOutcome): string {
  return test.meta?.skipReason ?? test.skipNote ?? 'skipped';
}

/** A requirement's checks the log cannot prove (`check on #seq`), in one order wherever the report is read. */
export function unprovableOf(requirementId: string, all: ReadonlyArray<{ check: string; requirementId: string; exchange: number }>): string[] {
  const own = all.filter((u) => u.requirementId === requirementId).sort((a, b) => a.exchange - b.exchange || a.check.localeCompare(b.check));
  return [...new Set(own.map((u) => `${u.check} on #${u.exchange}`))];
}
