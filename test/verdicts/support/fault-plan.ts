import { loadCatalog } from '../../../src/catalog/catalog.ts';
import type { FaultDefinition } from '../../../src/reference/faults/index.ts';
import type { ConformanceReport, RequirementVerdict } from '../../../src/report/report-types.ts';

/** One seed for every fault run, so a missed fault replays exactly with the printed command. */
export const FAULT_SEED = '20240605';

/**
 * Requirements whose evidence comes from other tests' exchanges: ERR-004 judges the 429 body, and only
 * the rate-limit exhaustion tests provoke a 429.
 */
const ALSO_NEEDS: Readonly<Record<string, readonly string[]>> = {
  'ERR-004': ['rate-limit'],
};

export interface FaultPlan {
  fault: string;
  strict: boolean;
  /** Only ADVISORY requirements catch it: the run must stay conformant (exit 0) even with --strict, and warn. */
  advisory: boolean;
  /** The --only selection: the fault's detectedBy ids and the areas their evidence comes from. */
  only: string[];
  expected: readonly string[];
  args: string[];
}

/**
 * The CLI arguments that show one fault: the embedded reference with that fault, only the tests of its
 * detecting requirements (--only ids: a whole area costs up to a third more CPU for property tests
 * that prove something else), and --strict for faults only SHOULD requirements catch. Rate-limit faults
 * keep the exhaustion tests: --no-exhaust is never passed.
 */
export function planFault(fault: Pick<FaultDefinition, 'name' | 'detectedBy' | 'strictOnly' | 'advisoryOnly' | 'windowSeconds'>): FaultPlan {
  const catalog = loadCatalog();
  for (const id of fault.detectedBy) catalog.get(id);
  const only = [...new Set(fault.detectedBy.flatMap((id) => [id, ...(ALSO_NEEDS[id] ?? [])]))];
  // An advisory-only fault runs with --strict too: the proof that an advisory never fails a run.
  const advisory = fault.advisoryOnly === true;
  const strict = fault.strictOnly === true || advisory;
  // One shard of one: every exchange logged whole, so re-judging the run evaluates every rule again.
  const args = ['--reference-faults', fault.name, '--seed', FAULT_SEED, '--only', only.join(','), '--shard', '1/1'];
  if (strict) args.push('--strict');
  // A fault that shows only on a longer window than the embedded reference's own starts it with that window.
  if (fault.windowSeconds !== undefined) args.push('--rate-window', String(fault.windowSeconds));
  return { fault: fault.name, strict, advisory, only, expected: fault.detectedBy, args };
}

export interface FaultOutcome {
  fault: string;
  exitCode: number | undefined;
  overall: string;
  /** Requirements with a fail or warn verdict: what the suite caught. */
  detecting: string[];
  /** detectedBy ids whose verdict is not a failure (fail for MUST; fail or warn for SHOULD). */
  missed: string[];
  expected: readonly string[];
  durationMs: number;
  ok: boolean;
}

const FAILING: readonly RequirementVerdict[] = ['fail', 'warn'];

/**
 * Judges a fault run: not conformant (exit 1) and every expected requirement failing. An advisory-only
 * fault is caught when every expected requirement warns while the run still exits 0, --strict included.
 */
export function judgeFault(plan: FaultPlan, exitCode: number | undefined, report: ConformanceReport | undefined, durationMs: number): FaultOutcome {
  const verdicts = new Map(report?.requirements.map((r) => [r.id, r]) ?? []);
  const detecting = (report?.requirements ?? []).filter((r) => FAILING.includes(r.verdict)).map((r) => r.id);
  const missed = plan.expected.filter((id) => {
    const result = verdicts.get(id);
    if (!result) return true;
    if (result.level === 'ADVISORY') return result.verdict !== 'warn';
    return result.level === 'MUST' ? result.verdict !== 'fail' : !FAILING.includes(result.verdict);
  });
  const overall = report?.verdict.overall ?? 'no report';
  const ended = plan.advisory ? exitCode === 0 && overall !== 'not-conformant' && overall !== 'incomplete' : exitCode === 1 && overall === 'not-conformant';
  return {
    fault: plan.fault,
    exitCode,
    overall,
    detecting,
    missed,
    expected: plan.expected,
    durationMs,
    ok: ended && missed.length === 0,
  };
}

/** Why each missed requirement was not failed: its verdict and reason, for the failure message. */
export function describeMisses(outcome: FaultOutcome, report: ConformanceReport | undefined): string {
  const lines = [`fault ${outcome.fault}: exit ${outcome.exitCode ?? 'killed'}, verdict ${outcome.overall}`];
  for (const id of outcome.missed) {
    const result = report?.requirements.find((r) => r.id === id);
    const tests = result?.tests.map((t) => `    ${t.state}: ${t.name}${t.skipReason ? ` (${t.skipReason})` : ''}`) ?? [];
    lines.push(`  ${id}: ${result ? `${result.verdict}${result.reason ? ` — ${result.reason}` : ''}` : 'absent from the report'}`, ...tests);
  }
  for (const problem of report?.harnessErrors ?? []) lines.push(`  harness error ${problem.code}: ${problem.message}`);
  return lines.join('\n');
}
