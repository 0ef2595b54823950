import { type RateReading, resetMs as ruleResetMs, retryAfterMs as ruleRetryAfterMs, targetNow as ruleTargetNow } from '../../src/checks/rules/rate-rules.ts';
import { RATE_LIMIT_FIELDS, RATE_LIMIT_HEADERS, strictInteger } from '../../src/text/header-values.ts';
import type { ApiResponse } from '../../src/client/index.ts';

/** One response with its rate-limit headers read strictly: a value that is not plain digits is undefined. */
export interface Reading {
  response: ApiResponse;
  /** Epoch ms the response arrived, by the suite's clock. */
  arrivedAt: number;
  limit: number | undefined;
  remaining: number | undefined;
  /** Unix seconds, as sent. */
  reset: number | undefined;
}

export function readRate(response: ApiResponse): Reading {
  const { headers, exchange } = response;
  return {
    response,
    arrivedAt: exchange.startedAt + exchange.durationMs,
    limit: strictInteger(headers[RATE_LIMIT_HEADERS.limit.wire]),
    remaining: strictInteger(headers[RATE_LIMIT_HEADERS.remaining.wire]),
    reset: strictInteger(headers[RATE_LIMIT_HEADERS.reset.wire]),
  };
}

/** The rate-limit headers a response lacks, by their display names. */
export function missingRateHeaders(response: ApiResponse): string[] {
  return RATE_LIMIT_FIELDS.filter((field) => response.headers[RATE_LIMIT_HEADERS[field].wire] === undefined).map((field) => RATE_LIMIT_HEADERS[field].display);
}

/** "Remaining 57, Reset 1767225600" — what a reader needs to follow a window. */
export function describeReading(reading: Reading): string {
  const show = (name: string) => reading.response.headers[name.toLowerCase()] ?? '(none)';
  return `${reading.response.status} with Remaining ${show('X-RateLimit-Remaining')}, Reset ${show('X-RateLimit-Reset')}`;
}

/** The reading as the rules read an exchange (src/checks/rules/rate-rules.ts): one arithmetic for both. */
const asRule = (reading: Reading): RateReading => ({ ...reading, headers: reading.response.headers });

/**
 * "Now" as the target's clock has it: its Date header when that parses, else the suite's arrival time.
 * Comparing Reset and an HTTP-date Retry-After with the target's own Date keeps clock skew out of it.
 */
export const targetNow = (reading: Reading): number => ruleTargetNow(asRule(reading));

/** The wait a 429's Retry-After asks for, in ms; undefined when absent or neither delay-seconds nor an HTTP-date. */
export const retryAfterMs = (reading: Reading): number | undefined => ruleRetryAfterMs(asRule(reading));

/** The wait until X-RateLimit-Reset, in ms by the target's clock; undefined without a usable Reset. */
export const resetMs = (reading: Reading): number | undefined => ruleResetMs(asRule(reading));
