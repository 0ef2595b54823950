import type { Socket } from 'node:net';
import { type Bucket, newBucket } from '../rate-limiter.ts';
import type { RateInfo } from '../replies.ts';
import { defineFault } from './hooks.ts';

/** The window-one-second fault's window. */
const SECOND_MS = 1_000;
/** A day: a window this long is the daily one, whatever the server's minute. */
const DAY_MS = 86_400_000;
/** The plan lie serves one request in this many of the minute it states. */
const PLAN_LIE_SHARE = 5;

/**
 * Windows that tell the client something else than what the limiter does: the outside tester's fronts of
 * issue 47 (a Python server written from the interface alone had the first two).
 */
export const RATE_WINDOW_FAULTS = [
  defineFault({
    name: 'ratelimit-counted-before-request',
    group: 'rate-limit',
    description:
      "X-RateLimit-Remaining is counted before the request it answers: a window's first answer says Limit, the last one served says 1, and the next request gets 429.",
    detectedBy: ['RATE-004'],
    hooks: () => ({
      reply: (reply) =>
        reply.rate && reply.status !== 429 ? { ...reply, rate: { ...reply.rate, remaining: Math.min(reply.rate.limit, reply.rate.remaining + 1) } } : reply,
    }),
  }),
  defineFault({
    name: 'ratelimit-headers-describe-day',
    group: 'rate-limit',
    description:
      'X-RateLimit-* always describe the day window (a Free key: Limit 1000) while the minute is enforced: the 429 comes when the minute is spent, saying Remaining 940 and naming the day.',
    detectedBy: ['RATE-004', 'RATE-006', 'RATE-008'],
    hooks: () => {
      // The key's real minute, by its bucket: the limiter itself is handed a minute it never reaches, so
      // that every answer it computes describes the day.
      const minuteOf = new WeakMap<Bucket, number>();
      // The day a refusal of the real minute describes. A 429 is answered in the tick that refused it, so
      // the reply hook reads what the refusal just left here.
      let refusedDay: { limit: number; remaining: number; resetMs: number } | undefined;
      return {
        authenticate: (key) => {
          if (key === undefined) return key;
          minuteOf.set(key.bucket, key.perMinute);
          return { ...key, perMinute: key.perDay + 1 };
        },
        refuse: (refused, { bucket, limits, windows }) => {
          refusedDay = undefined;
          const minute = minuteOf.get(bucket as Bucket);
          if (refused || minute === undefined || bucket.minuteCount < minute) return refused;
          refusedDay = { limit: limits.perDay, remaining: Math.max(0, limits.perDay - bucket.dayCount), resetMs: bucket.dayStart + windows.dayMs };
          return true;
        },
        reply: (reply) => {
          const day = refusedDay;
          refusedDay = undefined;
          if (!day || !reply.rate || reply.status !== 429) return reply;
          const rate: RateInfo = { ...reply.rate, limit: day.limit, remaining: day.remaining, reset: Math.ceil(day.resetMs / 1000), resetMs: day.resetMs };
          return { ...reply, rate };
        },
      };
    },
  }),
  defineFault({
    name: 'ratelimit-plan-lie',
    group: 'rate-limit',
    description:
      'A key serves a fifth of the minute its X-RateLimit-Limit states (a Business key says 1000 and serves 200); the 429 is consistent with itself: Remaining 0, Retry-After until Reset.',
    detectedBy: ['RATE-004'],
    hooks: () => ({
      refuse: (refused, { bucket, limits }) => refused || bucket.minuteCount >= Math.ceil(limits.perMinute / PLAN_LIE_SHARE),
      reply: (reply) => (reply.rate && reply.status === 429 ? { ...reply, rate: { ...reply.rate, remaining: 0 } } : reply),
    }),
  }),
  defineFault({
    name: 'ratelimit-plan-shared-per-address',
    group: 'rate-limit',
    description:
      "The keys of one plan used from one address share one counter (every Free key of a client, say); keys of different plans count apart, each with its own plan's limits.",
    detectedBy: ['RATE-011'],
    hooks: () => {
      const shared = new Map<string, Bucket>();
      return {
        authenticate: (key, attempt) => {
          if (key === undefined) return key;
          const address = (attempt.connection as Partial<Socket>).remoteAddress ?? '';
          const name = `${key.plan} ${address}`;
          const bucket = shared.get(name) ?? newBucket();
          shared.set(name, bucket);
          return { ...key, bucket };
        },
      };
    },
  }),
  defineFault({
    name: 'ratelimit-window-one-second',
    group: 'rate-limit',
    description:
      "The per-minute limit's window turns every second, its headers consistent with that (Reset and Retry-After a second away): a key is whole again a second after its 429, sixty times what its minute allows.",
    detectedBy: ['RATE-008'],
    // At the embedded reference's own 2-second window a second's window cannot be told from a valid limiter.
    windowSeconds: 60,
    hooks: () => {
      // The length of the server's minute window, in whole seconds, as its replies state it (constant per server).
      let minuteS: number | undefined;
      return {
        refuse: (refused, { bucket, limits, windows, now }) => {
          minuteS = Math.round(windows.minuteMs / 1000);
          const counted = bucket as Bucket;
          const second = now - (now % SECOND_MS);
          // The limiter has already turned the minute; the fault turns it again at every second.
          if (counted.minuteStart < second) {
            counted.minuteStart = second;
            counted.minuteCount = 0;
          }
          return refused && (counted.minuteCount >= limits.perMinute || counted.dayCount >= limits.perDay);
        },
        reply: (reply, { now }) => {
          const rate = reply.rate;
          // The day window, or a day as short as the minute, is left as it is.
          if (!rate || minuteS === undefined || rate.windowS !== minuteS || rate.windowS * SECOND_MS >= DAY_MS) return reply;
          // The limiter's Reset is the minute's end counted from the second the fault started it at.
          const endMs = rate.resetMs - minuteS * SECOND_MS + SECOND_MS;
          const waitS = Math.max(1, Math.ceil((endMs - now) / SECOND_MS));
          const turned: RateInfo = {
            ...rate,
            reset: Math.ceil(endMs / SECOND_MS),
            resetMs: endMs,
            resetIn: Math.max(0, Math.ceil((endMs - now) / SECOND_MS)),
            windowS: 1,
            ...(rate.retryAfter === undefined ? {} : { retryAfter: waitS }),
          };
          return { ...reply, rate: turned };
        },
      };
    },
  }),
] as const;
