import { createHash } from 'node:crypto';
import type { Exchange } from '../client/exchange.ts';

/*
 * What a failure's evidence shows of the response headers: those the failure judged, whole; the others
 * by name, length and hash, so target text no check read (a header carrying pieces of the key, a
 * banner) is not repeated in the report. Only the report's evidence is trimmed: the exchange log
 * (exchanges.har) keeps every header, since rejudge reads it again with every rule.
 */

/** Read for every body a check judges: the media type decides how the body was read. */
const ALWAYS_READ = new Set(['content-type']);

/** The words a failure is told in: the check, its message, what was expected and what was seen. */
export interface FailureWords {
  check?: string;
  message: string;
  expected?: string;
  actual?: string;
}

/**
 * Whether the failure's words name the header: its whole name, without `x-`, or its last part of four
 * letters or more (`Remaining` for X-RateLimit-Remaining), in any case. A header named loosely is shown;
 * only one the failure never names is reduced to its length and hash.
 */
function named(name: string, words: string): boolean {
  const lower = name.toLowerCase();
  const last = lower.slice(lower.lastIndexOf('-') + 1);
  return (
    words.includes(lower) ||
    words.includes(lower.replace(/^x-/, '')) ||
    words.includes(lower.replaceAll('-', ' ')) ||
    (last.length >= 4 && words.includes(last))
  );
}

/** A header value shown only as its length and a hash, to tell two values apart without repeating them. */
export function unreadValue(value: string): string {
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 16);
  return `(not read by this failure: ${value.length} characters, sha256 ${hash})`;
}

/** The exchange as the failure's evidence shows it: the response headers it did not read by length and hash. */
export function evidenceByNeed(exchange: Exchange, failure: FailureWords): Exchange {
  const response = exchange.response;
  if (!response || Object.keys(response.headers).length === 0) return exchange;
  const words = [failure.check, failure.message, failure.expected, failure.actual].join('\n').toLowerCase();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    headers[name] = ALWAYS_READ.has(name.toLowerCase()) || named(name, words) ? value : unreadValue(value);
  }
  return { ...exchange, response: { ...response, headers } };
}
