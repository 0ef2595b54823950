import type { RequirementResult, UntestedCode, UntestedRequirement, VerdictScope } from './report-types.ts';

/**
 * Requirements the interface does not show are out of scope (verdict not-covered), and so are those that
 * the suite does not test; everything else must be proven (RATE-008 without --plan is untested, not out of scope).
 */
export function inScope(requirement: RequirementResult): boolean {
  return requirement.verdict !== 'not-covered';
}

/** Proven either way: a verdict from tests that all ran (pass, fail, warn, or a declared deviation). */
export function isTested(requirement: RequirementResult): boolean {
  return requirement.verdict === 'pass' || requirement.verdict === 'fail' || requirement.verdict === 'warn' || requirement.verdict === 'deviation';
}

/** How much of the scope the run proved: every MUST, and every SHOULD under --strict. */
export function scopeOf(requirements: readonly RequirementResult[], strict: boolean): VerdictScope {
  const must = requirements.filter((r) => r.level === 'MUST' && inScope(r));
  const should = requirements.filter((r) => r.level === 'SHOULD' && inScope(r));
  const counted = strict ? [...must, ...should] : must;
  const scope: VerdictScope = {
    mustInScope: must.length,
    mustTested: must.filter(isTested).length,
    untested: counted.filter((r) => !isTested(r)).map(untestedEntry),
  };
  if (strict) {
    scope.shouldInScope = should.length;
    scope.shouldTested = should.filter(isTested).length;
  }
  return scope;
}

function untestedEntry(r: RequirementResult): UntestedRequirement {
  const code = r.untestedCode ?? 'no-test';
  return { id: r.id, level: r.level, code, reason: r.reason ?? 'not tested', cover: howToCover(code, r.reason) };
}

/** What a user does to get this requirement tested next time. */
export function howToCover(code: UntestedCode, reason?: string): string {
  switch (code) {
    case 'not-selected':
      // A replay selects by the earlier report's failures, not by --only.
      return /--replay/.test(reason ?? '') ? 'run again without --replay (a full run)' : 'run without --only';
    case 'profile': {
      const needed = /--profile (\w+)/.exec(reason ?? '')?.[1] ?? 'thorough';
      return `use --profile ${needed}`;
    }
    case 'read-only':
      return 'run without --read-only, against a store the suite may add pets to';
    case 'no-exhaust':
      if (/--exhaust-key\)/.test(reason ?? ''))
        return 'give --exhaust-key with a Free-plan key issued for testing: quick spends its window (about two minutes)';
      return 'run without --no-exhaust, or give --exhaust-key with a low-limit key to spend instead';
    case 'budget':
      return 'use --profile thorough (no request ceiling)';
    case 'key-too-large': {
      const exhaustKey = 'give --exhaust-key with a low-limit key (e.g. a Free-plan key issued for testing)';
      // Past the suite's own ceiling no profile helps; within it, thorough has no request budget, and
      // quick spends only a dedicated key's window, which standard's budget holds too.
      if (/exhausts only keys/.test(reason ?? '')) return exhaustKey;
      if (/the quick budget/.test(reason ?? '')) return 'use --profile standard, whose budget holds a Free-plan window (with --exhaust-key on larger plans)';
      return `${exhaustKey}, or use --profile thorough`;
    }
    case 'deadline':
      return 'allow the run more time (--max-duration)';
    case 'unprovable':
      return 'run again: the log holds an answer redacted (it held text like the API key), so it cannot prove the pass; a key with fewer long runs of digits or words makes that rarer';
    case 'shard':
      return 'merge all shards (--merge-reports)';
    case 'run-problem':
      return 'fix the problem that stopped the run (see the harness errors) and run again';
    case 'suite-error':
      return 'a suite error kept it from being judged: see the harness errors and report it';
    case 'no-plan':
      return "give --plan with the key's plan (free, pro, business, or enterprise:<perMinute>:<perDay>)";
    case 'no-test':
      return 'the suite ran no test of it: report this as a suite bug';
    case 'precondition':
      return 'the target did not provide what the test needs: see the reason (often another requirement fails or --category-ids is needed)';
  }
}

/**
 * The suite's own words for a test that could not start because createPet failed: "precondition failed:
 * createPet answered 400, not 201 … (see STA-001, SCH-002)". Only this shape names the requirements a skip
 * stands behind; the target shapes nothing of it but the three digits of the status.
 */
const BEHIND =
  /precondition failed: createPet answered \d{3}(?:, not 201(?: \(or 200\))? with a Pet| without a readable id|, not 201) \(see ([A-Z]{2,5}-\d{3}(?:, [A-Z]{2,5}-\d{3})*)\)/g;

/** The requirements whose failure an untested entry stands behind, as its reason names them. */
export function behindFailures(untested: Pick<UntestedRequirement, 'code' | 'reason'>): string[] {
  if (untested.code !== 'precondition') return [];
  return [...new Set([...untested.reason.matchAll(BEHIND)].flatMap((match) => (match[1] ?? '').split(', ')))];
}

/**
 * What remains untested behind a known failure of the baseline is accepted with that entry: marked with
 * the entry it stands behind, so require-complete does not fail the gate for it. Anything else untested
 * (a precondition of another kind, a profile, a deadline) still counts.
 */
export function acceptBehindBaseline(scope: VerdictScope, baselined: ReadonlySet<string>): VerdictScope {
  if (baselined.size === 0) return scope;
  const untested = scope.untested.map((u) => {
    const by = behindFailures(u).find((id) => baselined.has(id));
    return by ? { ...u, acceptedBy: by } : u;
  });
  return { ...scope, untested };
}
