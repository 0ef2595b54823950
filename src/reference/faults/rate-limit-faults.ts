import type { Socket } from 'node:net';
import { type Bucket, newBucket } from '../rate-limiter.ts';
import type { RateInfo, Reply } from '../replies.ts';
import { defineFault } from './hooks.ts';
import { setHeaders } from './reply-edits.ts';

const INCONSISTENCY_SECONDS = 10;

/** Rate-limit headers missing or malformed, and a limiter that refuses too early, never, or forever. */
export const RATE_LIMIT_FAULTS = [
  defineFault({
    name: 'ratelimit-headers-missing',
    group: 'rate-limit',
    description: 'No response carries X-RateLimit-* headers (429 keeps Retry-After).',
    detectedBy: ['RATE-001'],
    hooks: () => ({ reply: withoutRateHeaders }),
  }),
  defineFault({
    name: 'ratelimit-headers-missing-on-errors',
    group: 'rate-limit',
    description: 'Only successful responses carry X-RateLimit-*; errors (400, 401, 404, 429…) do not.',
    detectedBy: ['RATE-001', 'RATE-006'],
    hooks: () => ({ reply: (reply) => (reply.status >= 400 ? withoutRateHeaders(reply) : reply) }),
  }),
  defineFault({
    name: 'ratelimit-reset-in-ms',
    group: 'rate-limit',
    description: 'X-RateLimit-Reset is a Unix timestamp in milliseconds.',
    detectedBy: ['RATE-002', 'RATE-006'],
    hooks: () => ({ reply: (reply) => editRate(reply, (rate) => ({ reset: rate.resetMs })) }),
  }),
  defineFault({
    name: 'ratelimit-reset-as-delta',
    group: 'rate-limit',
    description: 'X-RateLimit-Reset is the number of seconds until the reset, not a timestamp.',
    detectedBy: ['RATE-002', 'RATE-006'],
    hooks: () => ({
      reply: (reply, context) => editRate(reply, (rate) => ({ reset: Math.max(0, Math.ceil((rate.resetMs - context.now) / 1000)) })),
    }),
  }),
  defineFault({
    name: 'ratelimit-remaining-constant',
    group: 'rate-limit',
    description: 'X-RateLimit-Remaining always equals the limit; it never decreases.',
    detectedBy: ['RATE-003', 'RATE-004', 'RATE-006'],
    hooks: () => ({ reply: (reply) => editRate(reply, (rate) => ({ remaining: rate.limit })) }),
  }),
  defineFault({
    name: 'retry-after-on-every-response',
    group: 'rate-limit',
    description: 'Every response carries Retry-After, and outside a 429 its value is "undefined" (a field written from no value).',
    detectedBy: ['RATE-010'],
    advisoryOnly: true,
    hooks: () => ({ reply: (reply) => (reply.status === 429 ? reply : setHeaders(reply, { 'retry-after': 'undefined' })) }),
  }),
  defineFault({
    name: 'ietf-ratelimit-reset-disagrees',
    group: 'rate-limit',
    description: 'The IETF RateLimit field says the window resets 30 s later than X-RateLimit-Reset does.',
    detectedBy: ['RATE-009'],
    advisoryOnly: true,
    hooks: () => ({ reply: (reply) => editRate(reply, (rate) => ({ resetIn: rate.resetIn + 30 })) }),
  }),
  defineFault({
    name: 'ietf-ratelimit-window-is-reset-time',
    group: 'rate-limit',
    description: 'RateLimit-Policy gives as window w the Unix time the window resets (X-RateLimit-Reset), not its length in seconds.',
    detectedBy: ['RATE-009'],
    advisoryOnly: true,
    hooks: () => ({ reply: (reply) => editRate(reply, (rate) => ({ windowS: rate.reset })) }),
  }),
  defineFault({
    name: 'ratelimit-reset-jitter',
    group: 'rate-limit',
    description: "X-RateLimit-Reset jumps back and forth: every other response names a time 20 s later than the window's.",
    detectedBy: ['RATE-003'],
    hooks: () => {
      let answers = 0;
      return { reply: (reply) => editRate(reply, (rate) => ({ reset: rate.reset + ((answers += 1) % 2 === 0 ? 20 : 0) })) };
    },
  }),
  defineFault({
    name: 'ratelimit-remaining-above-limit',
    group: 'rate-limit',
    description: 'X-RateLimit-Remaining is counted from twice the limit, so it exceeds X-RateLimit-Limit.',
    detectedBy: ['RATE-002', 'RATE-004', 'RATE-006'],
    hooks: () => ({ reply: (reply) => editRate(reply, (rate) => ({ remaining: rate.remaining + rate.limit })) }),
  }),
  defineFault({
    name: 'ratelimit-reports-idle-window',
    group: 'rate-limit',
    description:
      'A served response reports a longer window than the one that binds (a day of 1,000 times the limit): Remaining promises far more than the 429 that comes when the minute is spent.',
    detectedBy: ['RATE-004'],
    hooks: () => ({
      reply: (reply) =>
        reply.status === 429
          ? reply
          : editRate(reply, (rate) => ({ limit: rate.limit * 1000, remaining: rate.limit * 1000 - (rate.limit - rate.remaining), reset: rate.reset + 86_400 })),
    }),
  }),
  defineFault({
    name: 'ratelimit-never-429',
    group: 'rate-limit',
    description: 'The limiter counts but never refuses: no 429 however many requests are sent.',
    detectedBy: ['RATE-004'],
    hooks: () => ({ refuse: () => false }),
  }),
  defineFault({
    name: 'ratelimit-429-without-retry-after',
    group: 'rate-limit',
    description: '429 responses carry no Retry-After header.',
    detectedBy: ['RATE-005'],
    hooks: () => ({ reply: (reply) => editRate(reply, () => ({ retryAfter: undefined })) }),
  }),
  defineFault({
    name: 'ratelimit-429-at-half',
    group: 'rate-limit',
    description: 'Requests are refused with 429 once half the limit is spent, while Remaining is still above 0.',
    detectedBy: ['RATE-004', 'RATE-006'],
    hooks: () => ({
      refuse: (refused, { bucket, limits }) =>
        refused || bucket.minuteCount >= Math.ceil(limits.perMinute / 2) || bucket.dayCount >= Math.ceil(limits.perDay / 2),
    }),
  }),
  defineFault({
    name: 'ratelimit-one-extra',
    group: 'rate-limit',
    description: 'One request past the minute limit is still served (X-RateLimit-Remaining says 0 for it too); the next gets 429.',
    detectedBy: ['RATE-004'],
    hooks: () => ({ refuse: (refused, { bucket, limits }) => refused && bucket.minuteCount !== limits.perMinute }),
  }),
  defineFault({
    name: 'ratelimit-no-recovery',
    group: 'rate-limit',
    description: 'A key that got a 429 stays refused until the day window turns, whatever Retry-After said.',
    detectedBy: ['RATE-007'],
    hooks: () => {
      const blockedUntil = new WeakMap<Bucket, number>();
      return {
        refuse: (refused, { bucket, windows, now }) => {
          if (refused && !blockedUntil.has(bucket)) blockedUntil.set(bucket, bucket.dayStart + windows.dayMs);
          return refused || now < (blockedUntil.get(bucket) ?? 0);
        },
      };
    },
  }),
  defineFault({
    name: 'ratelimit-per-address',
    group: 'rate-limit',
    description: "Requests are counted per client address, not per key: every key sent from one address spends one counter (each key's Limit stays its own).",
    detectedBy: ['RATE-011'],
    hooks: () => {
      const byAddress = new Map<string, Bucket>();
      return {
        authenticate: (key, attempt) => {
          if (key === undefined) return key;
          const address = (attempt.connection as Partial<Socket>).remoteAddress ?? '';
          const bucket = byAddress.get(address) ?? newBucket();
          byAddress.set(address, bucket);
          return { ...key, bucket };
        },
      };
    },
  }),
  defineFault({
    name: 'ratelimit-429-bans-every-key',
    group: 'rate-limit',
    description: 'A 429 on one key refuses every key with 429 until the window of that 429 turns (one ban for the whole client).',
    detectedBy: ['RATE-011'],
    hooks: () => {
      let bannedUntil = 0;
      return {
        refuse: (refused, { bucket, windows, now }) => {
          if (refused) bannedUntil = Math.max(bannedUntil, bucket.minuteStart + windows.minuteMs);
          return refused || now < bannedUntil;
        },
      };
    },
  }),
  defineFault({
    name: 'ratelimit-counted-per-address',
    group: 'rate-limit',
    description:
      "Requests are counted per client address, not per key: every key used from one address spends one shared minute count, checked against the key's own limit (the headers still show the key's own count).",
    detectedBy: ['RATE-004'],
    hooks: () => {
      // One address on the embedded reference: one count per minute window for every key. The address's
      // window is on the clock, whichever way a key keeps its own (a key's may start at its first request).
      let window = Number.NaN;
      let count = 0;
      return {
        refuse: (refused, { limits, windows, now }) => {
          const start = now - (now % windows.minuteMs);
          if (start !== window) {
            window = start;
            count = 0;
          }
          const shared = refused || count >= limits.perMinute;
          if (!shared) count += 1;
          return shared;
        },
      };
    },
  }),
  defineFault({
    name: 'retry-after-inconsistent',
    group: 'rate-limit',
    description: `Retry-After on a 429 is ${INCONSISTENCY_SECONDS} s longer than X-RateLimit-Reset says.`,
    detectedBy: ['RATE-006'],
    strictOnly: true,
    hooks: () => ({
      reply: (reply) => editRate(reply, (rate) => (rate.retryAfter === undefined ? {} : { retryAfter: rate.retryAfter + INCONSISTENCY_SECONDS })),
    }),
  }),
  defineFault({
    name: 'retry-after-in-milliseconds',
    group: 'rate-limit',
    description: 'Retry-After on a 429 is the wait in milliseconds (60000 for a minute): read as seconds, as RFC 9110 says, it asks for hours.',
    detectedBy: ['RATE-012', 'RATE-006'],
    hooks: () => ({
      reply: (reply) => editRate(reply, (rate) => (rate.retryAfter === undefined ? {} : { retryAfter: rate.retryAfter * 1000 })),
    }),
  }),
  defineFault({
    name: 'ratelimit-429-not-error-body',
    group: 'rate-limit',
    description: '429 responses carry {"error": "…"} instead of the Error body.',
    detectedBy: ['ERR-004'],
    strictOnly: true,
    hooks: () => ({
      reply: (reply) => {
        if (reply.status !== 429) return reply;
        const { error: _error, ...rest } = reply;
        return { ...rest, body: '{"error":"too many requests"}' };
      },
    }),
  }),
] as const;

/** The reply without X-RateLimit-*; a 429 keeps its Retry-After as a plain header. */
function withoutRateHeaders(reply: Reply): Reply {
  if (!reply.rate) return reply;
  const { rate, ...rest } = reply;
  return rate.retryAfter === undefined ? rest : setHeaders(rest, { 'retry-after': String(rate.retryAfter) });
}

/** The reply with some rate-limit values replaced; a reply without them passes through. */
function editRate(reply: Reply, edit: (rate: RateInfo) => Partial<RateInfo>): Reply {
  if (!reply.rate) return reply;
  const rate: RateInfo = { ...reply.rate, ...edit(reply.rate) };
  if (rate.retryAfter === undefined) delete rate.retryAfter;
  return { ...reply, rate };
}
