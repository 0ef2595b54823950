import { HarnessError } from '../errors.ts';
import { PLANS, type Limits, type PlanName } from '../config/plans.ts';

/**
 * A --plan that disagrees with the key's first X-RateLimit-Limit by exactly another plan's row is a
 * wrong --plan, not a server that breaks RATE-008: a Pro key's 300 with --plan free names Pro's limit
 * to the request. Said at start as a configuration error with the likely plan, so a valid server is
 * never reported failing for the operator's mistake. A limit that matches no row (nor the stated one)
 * is left to RATE-008, which judges it; so is any limit when the plan's limits are not known.
 */
export function planMismatch(limitHeader: string | undefined, plan: PlanName, stated: Limits | undefined): HarnessError | undefined {
  const limits = stated ?? (plan === 'enterprise' ? undefined : PLANS[plan]);
  if (!limits || limitHeader === undefined || !/^\d{1,15}$/.test(limitHeader.trim())) return undefined;
  const limit = Number(limitHeader.trim());
  if (limit === limits.perMinute || limit === limits.perDay) return undefined;
  const likely = (Object.entries(PLANS) as Array<[PlanName, Limits]>).filter(([, row]) => row.perMinute === limit || row.perDay === limit);
  const [name, row] = likely[0] ?? [];
  if (!name || !row || likely.length > 1) return undefined;
  const which = row.perMinute === limit ? `${limit} a minute` : `${limit} a day`;
  const given = stated ? `enterprise:${stated.perMinute}:${stated.perDay}` : plan;
  return new HarnessError(
    'ERR_CONFIG',
    `--plan ${given} expects X-RateLimit-Limit ${limits.perMinute} (or ${limits.perDay}), but the key's first answer says ${limit}: the ${name} plan's ${which}. Is it a ${name} key? Run with --plan ${name}`,
  );
}
