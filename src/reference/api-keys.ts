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
  /** Where the key's windows start (see WindowStart); default on the clock. */
  windowStart?: WindowStart;
}

/**
 * Where a key's windows (the minute and the day) start: on the clock, where every key's window turns at
 * the same moments, or at the key's first request once its last window of that length has ended. The
 * interface allows both: it says only that X-RateLimit-Reset is "the Unix timestamp at which the limit
 * resets".
 */
export type WindowStart = 'clock' | 'first-request';

export interface ApiKey extends Limits {
  readonly key: string;
  readonly plan: PlanName;
  readonly windowStart?: WindowStart;
}

/** The key a checked configuration describes: its plan's limits (the interface's table), or its own. */
export function apiKeyOf(config: ApiKeyConfig, plan: PlanName): ApiKey {
  // An Enterprise key has no row in the table: its configuration carries its numbers (checked at start-up).
  const table = limitsOf(plan) ?? (config as Limits);
  const { key, windowStart } = config;
  return Object.freeze({ key, plan, perMinute: config.perMinute ?? table.perMinute, perDay: config.perDay ?? table.perDay, windowStart });
}
