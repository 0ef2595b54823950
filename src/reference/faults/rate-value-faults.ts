import { type OutsideFault, withRate } from './outside-fault.ts';

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
