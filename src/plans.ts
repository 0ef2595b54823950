/** The interface's rate limits by plan ("Rate limits by plan"); Enterprise limits are custom, per key. */

export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';

export const PLAN_NAMES: readonly PlanName[] = ['free', 'pro', 'business', 'enterprise'];

export interface Limits {
  perMinute: number;
  perDay: number;
}

export const PLANS: Readonly<Record<Exclude<PlanName, 'enterprise'>, Limits>> = Object.freeze({
  free: Object.freeze({ perMinute: 60, perDay: 1_000 }),
  pro: Object.freeze({ perMinute: 300, perDay: 10_000 }),
  business: Object.freeze({ perMinute: 1_000, perDay: 100_000 }),
});

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as readonly string[]).includes(value);
}

/** The plan's limits, or undefined for Enterprise (custom). */
export function limitsOf(plan: PlanName): Limits | undefined {
  return plan === 'enterprise' ? undefined : PLANS[plan];
}
