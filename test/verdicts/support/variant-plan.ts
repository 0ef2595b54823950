import { VARIANTS, type VariantName, combineVariants } from '../../../src/reference/variants.ts';
import type { ConformanceReport } from '../../../src/report/report-types.ts';

export const VARIANT_SEED = '20240605';

export interface VariantPlan {
  label: string;
  variants: readonly VariantName[];
  profile: 'quick' | 'standard' | 'thorough';
  args: string[];
}

/**
 * The CLI arguments for the embedded reference with these variants: every area, the given profile, and
 * the category ids the variants' suiteConfig asks for (a server restricting categories is tested only
 * with ids it accepts, as a user would run it), as the one shard of a run. Throws, like the reference,
 * on variants that conflict.
 */
export function planVariants(variants: readonly VariantName[], profile: VariantPlan['profile'], label = variants.join('+')): VariantPlan {
  combineVariants(...variants);
  const categoryIds = categoryIdsOf(variants);
  // One shard of one: the log keeps every exchange whole (as --certify does), so re-judging the run
  // evaluates every rule again, and the log anchors and coverage tables are held on every variant.
  const args = ['--reference-variants', variants.join(','), '--profile', profile, '--seed', VARIANT_SEED, '--shard', '1/1'];
  if (categoryIds) args.push('--category-ids', categoryIds.join(','));
  return { label, variants, profile, args };
}

/** The category ids every variant with a restriction accepts (their intersection), or none. */
function categoryIdsOf(variants: readonly VariantName[]): string[] | undefined {
  let ids: string[] | undefined;
  for (const name of variants) {
    const own = VARIANTS.find((v) => v.name === name)?.suiteConfig?.categoryIds;
    if (!own) continue;
    ids = ids ? ids.filter((id) => own.includes(id)) : [...own];
  }
  return ids;
}

export interface VerdictProblem {
  /** Requirement id, or the harness error code. */
  id: string;
  verdict: 'fail' | 'warn' | 'partial' | 'skipped' | 'not-covered' | 'harness-error';
  /** The headline and, for a failure, what was expected and seen. */
  lines: string[];
}

/**
 * What keeps a run from a clean CONFORMANT: failing and warning requirements with what was expected
 * and seen, MUST requirements skipped or without a test, harness errors. Empty for a clean run.
 */
export function verdictProblems(report: ConformanceReport | undefined): VerdictProblem[] {
  if (!report) return [{ id: 'report', verdict: 'harness-error', lines: ['no conformance.json was written'] }];
  const problems: VerdictProblem[] = [];
  for (const r of report.requirements) {
    if (r.verdict === 'fail' || r.verdict === 'warn') {
      const lines = [`${r.id} ${r.level} ${r.verdict}: ${r.text}`];
      for (const f of r.failures.slice(0, 3)) {
        lines.push(`    ${f.testName}${f.check ? ` [check ${f.check}]` : ''}`);
        lines.push(`      expected ${f.expected ?? '-'}`, `      actual   ${f.actual ?? f.message}`);
        if (f.property?.counterexample)
          lines.push(`      counterexample ${f.property.counterexample} (seed ${f.property.seed}, path ${f.property.path ?? '-'})`);
      }
      problems.push({ id: r.id, verdict: r.verdict, lines });
    } else if (r.level === 'MUST' && r.coverage === 'tested' && (r.verdict === 'skipped' || r.verdict === 'partial' || r.verdict === 'not-covered')) {
      problems.push({ id: r.id, verdict: r.verdict, lines: [`${r.id} MUST ${r.verdict}: ${r.reason ?? ''}`] });
    }
  }
  for (const p of report.harnessErrors) {
    problems.push({ id: p.code, verdict: 'harness-error', lines: [`harness error ${p.code}${p.requirementId ? ` (${p.requirementId})` : ''}: ${p.message}`] });
  }
  return problems;
}

export function formatProblems(problems: readonly VerdictProblem[]): string {
  return problems.flatMap((p) => p.lines).join('\n');
}
