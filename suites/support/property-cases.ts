import type { SchemaArbitraryOptions } from '../../src/arbitraries/index.ts';
import type { Profile } from '../../src/config/load-config.ts';
import type { ConformanceContext } from '../../src/harness/index.ts';

/** What the property files share: generated cases per profile, and how a property affords them. */

export type Runs = Readonly<Record<Profile, number>>;

/** Names tagged with the run, categories the target accepts. */
export function newPetOptions(ctx: ConformanceContext): SchemaArbitraryOptions {
  const ids = ctx.run.categoryIds?.map((id) => BigInt(id));
  return { nameTag: ctx.petName(ctx.requirement.id), ...(ids && ids.length > 0 ? { categoryIds: ids } : {}) };
}

/** Skips rather than stop half-way when the run's request budget cannot pay for every case (families first). */
export function affordCases(ctx: ConformanceContext, runs: Runs, requestsPerCase: number, families = 0): number {
  const numRuns = ctx.numRuns(runs);
  const cases = numRuns + families;
  const left = ctx.budgetLeft();
  if (left !== undefined && left < cases * requestsPerCase) ctx.skip(`needs up to ${cases * requestsPerCase} requests; ${left} left in the budget`, 'budget');
  return numRuns;
}

/** Families are sent from standard on; quick keeps to its generated cases. */
export const withFamilies = <T>(ctx: ConformanceContext, families: T[]): T[] => (ctx.run.profile === 'quick' ? [] : families);
