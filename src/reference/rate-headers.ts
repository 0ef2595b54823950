import { wholeText } from './flat-text.ts';
import type { RateInfo } from './replies.ts';

/**
 * The rate-limit fields of a reply as name/value pairs: X-RateLimit-* as the interface names them, and
 * (unless a server leaves them out) the IETF RateLimit and RateLimit-Policy fields
 * (draft-ietf-httpapi-ratelimit-headers) telling the same numbers as Structured Fields.
 */
const DAY_POLICY = '"day"';

export function rateHeaders(rate: RateInfo, ietf: boolean): string[] {
  return pushRateHeaders([], rate, ietf);
}

/** rateHeaders appended to `pairs` (every reply's header list): no array of their own per reply. */
export function pushRateHeaders(pairs: string[], rate: RateInfo, ietf: boolean): string[] {
  pairs.push('x-ratelimit-limit', String(rate.limit), 'x-ratelimit-remaining', String(rate.remaining), 'x-ratelimit-reset', String(rate.reset));
  if (ietf) {
    const policy = rate.windowS >= 86_400 ? DAY_POLICY : '"minute"';
    // Made whole here: node:http tests each value against a pattern, which costs twice as much on pieces.
    pairs.push(
      'ratelimit-policy',
      wholeText(`${policy};q=${rate.limit};w=${rate.windowS}`),
      'ratelimit',
      wholeText(`${policy};r=${rate.remaining};t=${rate.resetIn}`),
    );
  }
  return pairs;
}
