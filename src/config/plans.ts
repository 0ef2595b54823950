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

/** A plan as stated on the command line: a plan name, and an Enterprise key's custom limits when given. */
export interface StatedPlan {
  plan: PlanName;
  /** Enterprise only: enterprise:<perMinute>:<perDay>, the form REFERENCE_API_KEYS uses. */
  limits?: Limits;
}

export const PLAN_FORMS = 'free, pro, business, enterprise or enterprise:<perMinute>:<perDay>';

/** Parses --plan: `free`, `pro`, `business`, `enterprise` or `enterprise:<perMinute>:<perDay>`; undefined when malformed. */
export function parsePlan(text: string): StatedPlan | undefined {
  const [name = '', ...rest] = text.trim().toLowerCase().split(':');
  if (!isPlanName(name)) return undefined;
  if (rest.length === 0) return { plan: name };
  if (name !== 'enterprise' || rest.length !== 2 || !rest.every((n) => /^[1-9]\d{0,15}$/.test(n))) return undefined;
  return { plan: name, limits: { perMinute: Number(rest[0]), perDay: Number(rest[1]) } };
}

/** The embedded reference's main key: an Enterprise key whose custom limits the suite knows, so RATE-008 is tested exactly. */
/** The shell variable a plan key is read from in replay and curl lines: FREE_PLAN_KEY, PRO_PLAN_KEY, BUSINESS_PLAN_KEY. */
export function planKeyVariable(plan: string): string {
  return `${plan.toUpperCase()}_PLAN_KEY`;
}

export const EMBEDDED_PLAN: Readonly<Required<StatedPlan>> = Object.freeze({
  plan: 'enterprise',
  limits: Object.freeze({ perMinute: 1_000_000_000, perDay: 1_000_000_000 }),
});

/** A key of a stated plan that the run may spend to judge that plan's limits (--plan-key, the embedded Free key). */
export interface PlanKey {
  plan: Exclude<PlanName, 'enterprise'>;
  key: string;
}

export const PLAN_KEY_FORM = '<plan>=<key>, the plan free, pro or business';

/** Parses one --plan-key value, `<plan>=<key>`: a plan whose limits the interface states, and a non-empty key; undefined when malformed. */
export function parsePlanKey(text: string): PlanKey | undefined {
  const at = text.indexOf('=');
  if (at === -1) return undefined;
  const plan = text.slice(0, at).trim().toLowerCase();
  const key = text.slice(at + 1).trim();
  if (key === '' || /[\s,]/.test(key) || !isPlanName(plan) || plan === 'enterprise') return undefined;
  return { plan, key };
}
