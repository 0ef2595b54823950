import { type Limits, type PlanName, PLANS, limitsOf } from '../config/plans.ts';

export { type Limits, type PlanName, PLANS };

/*
 * What a client observes of the keys: each key's plan and the limits it is served with. Checking and
 * parsing the operator's key configuration (REFERENCE_API_KEYS, the demo keys) is start-up work, in
 * startup/key-config.ts, which hands a checked configuration to apiKeyOf.
 */

export interface ApiKeyConfig {
  key: string;
  /** Case-insensitive. */
  plan: PlanName | (string & {});
  /** Required for enterprise; overrides the plan's numbers otherwise. */
  perMinute?: number;
  perDay?: number;
}

export interface ApiKey extends Limits {
  readonly key: string;
  readonly plan: PlanName;
}

/** The key a checked configuration describes: its plan's limits (the interface's table), or its own. */
export function apiKeyOf(config: ApiKeyConfig, plan: PlanName): ApiKey {
  // An Enterprise key has no row in the table: its configuration carries its numbers (checked at start-up).
  const table = limitsOf(plan) ?? (config as Limits);
  return Object.freeze({ key: config.key, plan, perMinute: config.perMinute ?? table.perMinute, perDay: config.perDay ?? table.perDay });
}
