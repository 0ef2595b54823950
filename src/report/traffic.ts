import type { Exchange } from '../client/exchange.ts';
import type { OperationInfo } from '../contract/index.ts';
import { type PlanName, limitsOf } from '../config/plans.ts';
import { grouped } from './html/format.ts';
import type { CoverageCell, CoverageRow, RateLimitPoint, TestOutcome, Traffic } from './report-types.ts';

/** Every exchange of the run once, in the order the tests reported them (a shared one only where it was made). */
export function collectExchanges(tests: readonly TestOutcome[]): Exchange[] {
  return tests.flatMap((t) => (t.meta?.exchanges ?? []).filter((e) => !e.sharedFrom));
}

/**
 * Operation × status: how many responses of each documented status were seen (a documented status never
 * seen is a gap in the suite's reach), then any undocumented status seen, which STA-009 judges.
 */
export function coverageMatrix(operations: readonly OperationInfo[], exchanges: readonly Exchange[]): CoverageRow[] {
  const seen = new Map<string, Map<string, number>>();
  for (const exchange of exchanges) {
    if (!exchange.operationId || !exchange.response) continue;
    const byStatus = seen.get(exchange.operationId) ?? new Map<string, number>();
    const status = String(exchange.response.status);
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    seen.set(exchange.operationId, byStatus);
  }
  return operations.map((op) => {
    const byStatus = seen.get(op.operationId) ?? new Map<string, number>();
    const documented: CoverageCell[] = op.responses.map((r) => ({
      status: r.status,
      documented: true,
      notStated: r.notStated,
      count: byStatus.get(r.status) ?? 0,
    }));
    const known = new Set(op.responses.map((r) => r.status));
    const extra: CoverageCell[] = [...byStatus.entries()]
      .filter(([status]) => !known.has(status))
      .map(([status, count]) => ({ status, documented: false, notStated: false, count }));
    const cells = [...documented, ...extra].sort((a, b) => a.status.localeCompare(b.status));
    return { operationId: op.operationId, method: op.method, path: op.path, cells, total: [...byStatus.values()].reduce((a, b) => a + b, 0) };
  });
}

/** Request counts and the X-RateLimit-Remaining series, in time order. */
export function trafficOf(exchanges: readonly Exchange[], plan?: PlanName): Traffic {
  const rateLimit: RateLimitPoint[] = [];
  let transportErrors = 0;
  let retries = 0;
  let otherRequests = 0;
  let exhaustKeyRequests = 0;
  for (const exchange of exchanges) {
    if (exchange.keyRole === 'exhaust') exhaustKeyRequests += 1;
    if (!exchange.response) transportErrors += 1;
    if (!exchange.operationId) otherRequests += 1;
    retries += exchange.retries ?? 0;
    const remaining = exchange.rateLimit?.remaining;
    if (remaining === undefined) continue;
    const point: RateLimitPoint = { startedAt: exchange.startedAt, remaining };
    if (exchange.rateLimit?.limit !== undefined) point.limit = exchange.rateLimit.limit;
    rateLimit.push(point);
  }
  rateLimit.sort((a, b) => a.startedAt - b.startedAt);
  const traffic: Traffic = { requestCount: exchanges.length, transportErrors, retries, otherRequests, rateLimit };
  if (exhaustKeyRequests > 0) traffic.exhaustKeyRequests = exhaustKeyRequests;
  if (plan) {
    const perDay = limitsOf(plan)?.perDay;
    traffic.dailyQuota = { plan, used: exchanges.length - exhaustKeyRequests, ...(perDay === undefined ? {} : { perDay }) };
  }
  return traffic;
}

/** How much of the key's daily quota the run spent (--plan). */
export function dailyQuotaText(quota: NonNullable<Traffic['dailyQuota']>): string {
  const used = `${quota.used} request${quota.used === 1 ? '' : 's'}`;
  if (quota.perDay === undefined) return `Daily quota: the main key sent ${used}; the ${quota.plan} plan's limits are custom, so no share is shown.`;
  const share = (quota.used / quota.perDay) * 100;
  const shown = share > 0 && share < 0.1 ? '<0.1' : share.toFixed(share < 10 ? 1 : 0);
  return `Daily quota: the main key sent ${used}, ${shown}% of the ${quota.plan} plan's ${grouped(quota.perDay)} a day.`;
}

/** The requests the target left without an answer: its doing, counted, whatever else they cost the run. */
export function transportErrorsText(count: number): string {
  const requests = count === 1 ? '1 request' : `${count} requests`;
  return `${requests} left without an answer by the target (a connection it closed or reset, or a time-out): the target's doing, each in its test's evidence.`;
}
