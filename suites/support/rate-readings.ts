import { DIGITS, RATE_LIMIT_FIELDS, RATE_LIMIT_HEADERS, parseHttpDate, strictInteger } from '../../src/header-values.ts';
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

/**
 * "Now" as the target's clock has it: its Date header when that parses, else the suite's arrival time.
 * Comparing Reset and an HTTP-date Retry-After with the target's own Date keeps clock skew out of it.
 */
export function targetNow(reading: Reading): number {
  const date = reading.response.headers.date;
  return (date === undefined ? undefined : parseHttpDate(date, reading.arrivedAt)) ?? reading.arrivedAt;
}

/** The wait a 429's Retry-After asks for, in ms; undefined when absent or neither delay-seconds nor an HTTP-date. */
export function retryAfterMs(reading: Reading): number | undefined {
  const raw = reading.response.headers['retry-after']?.trim();
  if (raw === undefined) return undefined;
  if (DIGITS.test(raw)) return Number(raw) * 1000;
  const date = parseHttpDate(raw, reading.arrivedAt);
  return date === undefined ? undefined : Math.max(0, date - targetNow(reading));
}

/** The wait until X-RateLimit-Reset, in ms by the target's clock; undefined without a usable Reset. */
export function resetMs(reading: Reading): number | undefined {
  return reading.reset === undefined ? undefined : reading.reset * 1000 - targetNow(reading);
}
