import { operationOf } from './response-reading.ts';
import type { Check } from './check-types.ts';

/** STA-008: the interface documents no server error, so any 5xx is the target's fault. */
export const noServerError: Check = {
  name: 'no-server-error',
  requirementId: 'STA-008',
  run(ctx) {
    if (ctx.status < 500) return undefined;
    return { expected: 'a status below 500 (the interface documents no server error)', actual: `status ${ctx.status}` };
  },
};

/** After an operation's announced removal date, answering "gone" is no longer a deviation. */
const REMOVED_STATUSES = [404, 410];

/**
 * STA-009: every status is one the spec lists for the operation (x-not-stated ones included, being
 * admitted choices). A 3xx is never listed, so a redirect is reported here rather than followed.
 */
export const documentedStatus: Check = {
  name: 'documented-status',
  requirementId: 'STA-009',
  run(ctx) {
    const op = operationOf(ctx);
    if (!op) return undefined;
    if (op.responses.some((r) => r.status === String(ctx.status))) return undefined;
    const removed = op.sunset !== undefined && ctx.now >= Date.parse(op.sunset);
    if (removed && REMOVED_STATUSES.includes(ctx.status)) return undefined;
    const listed = op.responses.map((r) => r.status);
    if (removed) listed.push(...REMOVED_STATUSES.map(String).filter((s) => !listed.includes(s)));
    return {
      expected: `a status documented for ${op.operationId} (${listed.join(', ')})`,
      actual: `status ${ctx.status}${ctx.status >= 300 && ctx.status < 400 ? ' (a redirect, not followed)' : ''}`,
    };
  },
};
