import { defineFault } from './hooks.ts';
import type { Bucket } from '../rate-limiter.ts';
import { setHeaders } from './reply-edits.ts';
import { withoutRateHeaders, withoutRetryAfter, withRate } from './field-and-rate-edits.ts';
import type { OutsideFault } from './outside-fault.ts';

/**
 * Rate limiting as real servers get it wrong: header arithmetic and units, off-by-one counters,
 * Retry-After forms and values, headers written on some paths only.
 */

export const INDEPENDENT_RATE_LIMIT_FAULTS = [
  defineFault({
    name: 'ind-rate-reset-milliseconds',
    group: 'rate-limit',
    description: 'X-RateLimit-Reset is Date.now()-style milliseconds since the epoch, not seconds.',
    detectedBy: ['RATE-002'],
    hooks: () => ({ reply: (reply) => withRate(reply, (rate) => ({ ...rate, reset: rate.resetMs })) }),
  }),
  defineFault({
    name: 'ind-rate-reset-seconds-left',
    group: 'rate-limit',
    description: 'X-RateLimit-Reset holds the seconds left until the window turns (a delta), not a Unix timestamp.',
    detectedBy: ['RATE-002'],
    hooks: () => ({ reply: (reply) => withRate(reply, (rate) => ({ ...rate, reset: rate.resetIn })) }),
  }),
  defineFault({
    name: 'ind-rate-limit-hardcoded',
    group: 'rate-limit',
    description: "X-RateLimit-Limit is the Free plan's 60 written as a constant, whatever the key's plan.",
    detectedBy: ['RATE-002', 'RATE-008'],
    hooks: () => ({ reply: (reply) => withRate(reply, (rate) => ({ ...rate, limit: 60 })) }),
  }),
  defineFault({
    name: 'ind-rate-remaining-negative',
    group: 'rate-limit',
    description: 'Refused requests are counted too and Remaining is limit - hits unclamped: a 429 says Remaining -1, -2…',
    detectedBy: ['RATE-002', 'RATE-006'],
    hooks: () => {
      const refusedInWindow = new Map<number, number>();
      return {
        reply: (reply) => {
          if (reply.status !== 429 || !reply.rate) return reply;
          const hits = (refusedInWindow.get(reply.rate.reset) ?? 0) + 1;
          refusedInWindow.set(reply.rate.reset, hits);
          return withRate(reply, (rate) => ({ ...rate, remaining: -hits }));
        },
      };
    },
  }),
  defineFault({
    name: 'ind-rate-headers-success-only',
    group: 'rate-limit',
    description: 'The rate-limit headers are set by a middleware on the success path: 4xx responses lack them (a 429 keeps Retry-After).',
    detectedBy: ['RATE-001'],
    hooks: () => ({ reply: (reply) => (reply.status >= 400 ? withoutRateHeaders(reply) : reply) }),
  }),
  defineFault({
    name: 'ind-rate-headers-not-on-create',
    group: 'rate-limit',
    description: 'The rate-limit headers are written by the GET handlers only: createPet responses lack them.',
    detectedBy: ['RATE-001'],
    hooks: () => ({ reply: (reply, context) => (context.operation === 'createPet' ? withoutRateHeaders(reply) : reply) }),
  }),
  defineFault({
    name: 'ind-rate-no-retry-after',
    group: 'rate-limit',
    description: 'A 429 carries no Retry-After header.',
    detectedBy: ['RATE-005'],
    hooks: () => ({ reply: (reply) => withRate(reply, withoutRetryAfter) }),
  }),
  defineFault({
    name: 'ind-rate-retry-after-iso',
    group: 'rate-limit',
    description: 'Retry-After is an ISO 8601 timestamp (2026-01-01T12:01:00.000Z), neither delay-seconds nor an HTTP-date.',
    detectedBy: ['RATE-005'],
    hooks: () => ({
      reply: (reply) => {
        if (reply.rate?.retryAfter === undefined) return reply;
        return setHeaders(withRate(reply, withoutRetryAfter), { 'retry-after': new Date(reply.rate.resetMs).toISOString() });
      },
    }),
  }),
  defineFault({
    name: 'ind-rate-retry-after-minutes',
    group: 'rate-limit',
    description: 'Retry-After is computed as floor(ms / 60000), minutes instead of seconds: usually 0, so a client retries at once and is refused again.',
    detectedBy: ['RATE-007', 'RATE-006'],
    hooks: () => ({
      reply: (reply) => withRate(reply, (rate) => (rate.retryAfter === undefined ? rate : { ...rate, retryAfter: Math.floor(rate.retryAfter / 60) })),
    }),
  }),
  defineFault({
    name: 'ind-rate-refuse-one-early',
    group: 'rate-limit',
    description: 'The counter is incremented before the check (>= on the new count): the last request of the quota is already refused, with Remaining 1.',
    detectedBy: ['RATE-004', 'RATE-006'],
    hooks: () => ({ refuse: (refused, { bucket, limits }) => refused || bucket.minuteCount + 1 >= limits.perMinute }),
  }),
  defineFault({
    name: 'ind-rate-refuse-one-late',
    group: 'rate-limit',
    description: 'The check is > instead of >=: one request beyond the per-minute limit is still served.',
    detectedBy: ['RATE-004'],
    hooks: () => ({
      refuse: (refused, { bucket, limits }) => refused && !(bucket.minuteCount === limits.perMinute && bucket.dayCount < limits.perDay),
    }),
  }),
  defineFault({
    name: 'ind-rate-penalty-window',
    group: 'rate-limit',
    description: 'A key that hit the limit stays refused for the whole next window too, while Retry-After names the end of the current one.',
    detectedBy: ['RATE-007'],
    hooks: () => {
      const blockedUntil = new WeakMap<Bucket, number>();
      return {
        refuse: (refused, { bucket, windows, now }) => {
          if (refused) {
            if ((blockedUntil.get(bucket) ?? 0) <= now) blockedUntil.set(bucket, bucket.minuteStart + 2 * windows.minuteMs);
            return true;
          }
          return now < (blockedUntil.get(bucket) ?? 0);
        },
      };
    },
  }),
] as const;

/** Rate-limit headers and arithmetic, Retry-After, plan limits (outside-fault-list.md 19–23). */

/** What the limiter of out-free-plan-100 was configured with for Free keys. */
const FREE_CONFIGURED_PER_MINUTE = 100;

export const OUTSIDE_RATE_LIMIT_FAULTS = [
  {
    name: 'out-reset-relative',
    area: 'rate-limit headers',
    description: 'X-RateLimit-Reset carries the seconds until the reset, not a Unix timestamp',
    hooks: { reply: (reply) => withRate(reply, (rate) => ({ ...rate, reset: rate.resetIn })) },
  },
  {
    name: 'out-remaining-before-count',
    area: 'rate-limit arithmetic',
    description: 'X-RateLimit-Remaining is computed before the request is counted: one too high',
    hooks: {
      reply: (reply) => withRate(reply, (rate) => (rate.retryAfter === undefined ? { ...rate, remaining: rate.remaining + 1 } : rate)),
    },
  },
  {
    name: 'out-401-no-rate-headers',
    area: 'rate-limit headers',
    description: 'a 401 carries no X-RateLimit-* headers',
    hooks: {
      reply: (reply) => {
        if (reply.status !== 401) return reply;
        const { rate: _rate, ...rest } = reply;
        return rest;
      },
    },
  },
  {
    name: 'out-retry-after-timestamp',
    area: 'Retry-After',
    description: "the 429's Retry-After is the reset time as a Unix timestamp",
    hooks: { reply: (reply) => withRate(reply, (rate) => (rate.retryAfter === undefined ? rate : { ...rate, retryAfter: rate.reset })) },
  },
  {
    name: 'out-free-plan-100',
    area: 'plan limits',
    description: 'Free keys are refused only after 100 requests a minute while the headers say 60',
    hooks: {
      refuse: (refused, { bucket, limits }) => {
        if (!('plan' in limits) || limits.plan !== 'free') return refused;
        return bucket.minuteCount >= FREE_CONFIGURED_PER_MINUTE || bucket.dayCount >= limits.perDay;
      },
    },
  },
] as const satisfies readonly OutsideFault[];
