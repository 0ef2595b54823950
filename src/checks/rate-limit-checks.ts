import { operationOf, quoted } from './response-reading.ts';
import { DIGITS, RATE_LIMIT_FIELDS, RATE_LIMIT_HEADERS, RESET_EPOCH_FROM, RESET_MILLIS_FROM, parseHttpDate, strictInteger } from '../text/header-values.ts';
import type { Check, CheckContext } from './check-types.ts';

/** Seconds of clock difference tolerated between target and suite. */
const SKEW_S = 5;
/** The longest window the interface names is a day (requests per day). */
const LONGEST_WINDOW_S = 86_400;

/** RATE-001: all three headers on every response of the interface, errors and 429 included. */
export const rateLimitHeadersPresent: Check = {
  name: 'rate-limit-headers-present',
  requirementId: 'RATE-001',
  run(ctx) {
    if (!operationOf(ctx)) return undefined;
    const missing = RATE_LIMIT_FIELDS.filter((field) => ctx.headers[RATE_LIMIT_HEADERS[field].wire] === undefined);
    if (missing.length === 0) return undefined;
    return {
      expected: 'X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset on every response',
      actual: `${missing.map((field) => RATE_LIMIT_HEADERS[field].display).join(', ')} missing on a ${ctx.status} response`,
    };
  },
};

/**
 * RATE-002: each header is one non-negative integer (a duplicated header, seen as "10, 10", is not),
 * Remaining ≤ Limit, and Reset is a Unix time in seconds within a day from now. Milliseconds and deltas
 * are the usual mistakes; `actual` names which one it looks like.
 */
export const rateLimitHeadersWellFormed: Check = {
  name: 'rate-limit-headers-well-formed',
  requirementId: 'RATE-002',
  run(ctx) {
    if (!operationOf(ctx)) return undefined;
    const problems: string[] = [];
    const read = (field: keyof typeof RATE_LIMIT_HEADERS): number | undefined => {
      const raw = ctx.headers[RATE_LIMIT_HEADERS[field].wire];
      if (raw === undefined) return undefined; // RATE-001's finding
      const value = strictInteger(raw);
      if (value === undefined) problems.push(`${RATE_LIMIT_HEADERS[field].display} ${quoted(ctx, raw)} is not a single non-negative integer`);
      return value;
    };
    const limit = read('limit');
    const remaining = read('remaining');
    const reset = read('reset');
    if (limit !== undefined && remaining !== undefined && remaining > limit) {
      problems.push(`X-RateLimit-Remaining ${remaining} exceeds X-RateLimit-Limit ${limit}`);
    }
    if (reset !== undefined) {
      const problem = resetProblem(reset, ctx);
      if (problem) problems.push(problem);
    }
    if (problems.length === 0) return undefined;
    return {
      expected: 'non-negative integer rate-limit headers, Remaining ≤ Limit, Reset a Unix time in seconds',
      actual: problems.join('; '),
    };
  },
};

function resetProblem(reset: number, ctx: CheckContext): string | undefined {
  const nowS = ctx.now / 1000;
  if (reset >= RESET_MILLIS_FROM) return `X-RateLimit-Reset ${reset} looks like milliseconds, not a Unix time in seconds`;
  if (reset < RESET_EPOCH_FROM) return `X-RateLimit-Reset ${reset} looks like a delta in seconds, not a Unix time`;
  if (reset < nowS - SKEW_S) return `X-RateLimit-Reset ${reset} is ${Math.round(nowS - reset)} s in the past`;
  if (reset > nowS + LONGEST_WINDOW_S + SKEW_S) {
    return `X-RateLimit-Reset ${reset} is ${Math.round(reset - nowS)} s ahead, more than a day`;
  }
  return undefined;
}

/** RATE-005: a 429 says when to come back, as delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export const retryAfterOn429: Check = {
  name: 'retry-after-on-429',
  requirementId: 'RATE-005',
  run(ctx) {
    if (!operationOf(ctx) || ctx.status !== 429) return undefined;
    const raw = ctx.headers['retry-after'];
    const expected = 'a Retry-After header holding delay-seconds or an HTTP-date';
    if (raw === undefined) return { expected, actual: 'no Retry-After header' };
    if (DIGITS.test(raw) || parseHttpDate(raw, ctx.now) !== undefined) return undefined;
    return { expected, actual: `Retry-After ${quoted(ctx, raw)}` };
  },
};

/**
 * RATE-010: Retry-After on a response other than a 429 (RATE-005 judges those) still has the syntax RFC
 * 9110 §10.2.3 gives it; the interface neither asks for it there nor forbids it.
 */
export const retryAfterWellFormed: Check = {
  name: 'retry-after-well-formed',
  requirementId: 'RATE-010',
  run(ctx) {
    const raw = ctx.headers['retry-after'];
    if (!operationOf(ctx) || ctx.status === 429 || raw === undefined) return undefined;
    if (DIGITS.test(raw) || parseHttpDate(raw, ctx.now) !== undefined) return undefined;
    return { expected: 'Retry-After, where sent, holding delay-seconds or an HTTP-date', actual: `Retry-After ${quoted(ctx, raw)} on a ${ctx.status}` };
  },
};
