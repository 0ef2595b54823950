import type { Limits, WindowStart } from './api-keys.ts';
import { createAnonymousBuckets } from './anonymous-buckets.ts';
import type { RateInfo } from './replies.ts';

/** Counters of one principal over two fixed windows: aligned on the clock, or from a key's first request (WindowStart). */
export interface Bucket {
  minuteStart: number;
  minuteCount: number;
  dayStart: number;
  dayCount: number;
}

export interface RateWindows {
  /** Length of the short window; 60 s unless a run shortens it to test recovery quickly. */
  minuteMs: number;
  dayMs: number;
}

/** What a fault sees when it second-guesses the decision. */
export interface RateUsage {
  readonly bucket: Readonly<Bucket>;
  readonly limits: Limits;
  readonly windows: RateWindows;
  readonly now: number;
}

/** A principal's limits, and where its windows start (a key's option; on the clock when absent). */
export interface KeyLimits extends Limits {
  readonly windowStart?: WindowStart | undefined;
}

export interface RateLimiter {
  /** Counts the request unless it is refused; a refused request has `retryAfter` set. */
  consume(bucket: Bucket, limits: KeyLimits, now: number): RateInfo;
  /** The bucket of an unauthenticated client, by address. */
  anonymousBucket(address: string, now: number): Bucket;
  /** How many anonymous addresses are tracked (never more than the cap). */
  readonly anonymousAddresses: number;
}

export function newBucket(): Bucket {
  return { minuteStart: 0, minuteCount: 0, dayStart: 0, dayCount: 0 };
}

/** The rate limiter's seam, where a fault may change what it does (see seams.ts). */
export interface RateLimiterSeams {
  /** rate limiter: whether this request is refused. */
  refuse?(refused: boolean, usage: RateUsage): boolean;
}

/** The rate limiter's seam as it calls it (seams.ts fills it in when no fault changes it). */
export type Refuse = (refused: boolean, bucket: Readonly<Bucket>, limits: Limits, windows: RateWindows, now: number) => boolean;

export function createRateLimiter(windows: RateWindows, seams: { readonly refuse: Refuse }): RateLimiter {
  const { minuteMs, dayMs } = windows;
  const anonymous = createAnonymousBuckets(windows, newBucket);

  function consume(bucket: Bucket, limits: KeyLimits, now: number): RateInfo {
    // One rule for both windows: a day and a minute opened by the same request turn in order, the day later.
    const startOf = (windowMs: number) => (limits.windowStart === 'first-request' ? now : now - (now % windowMs));
    if (now >= bucket.minuteStart + minuteMs || now < bucket.minuteStart) {
      bucket.minuteStart = startOf(minuteMs);
      bucket.minuteCount = 0;
    }
    if (now >= bucket.dayStart + dayMs || now < bucket.dayStart) {
      bucket.dayStart = startOf(dayMs);
      bucket.dayCount = 0;
    }
    const overMinute = bucket.minuteCount >= limits.perMinute;
    const overDay = bucket.dayCount >= limits.perDay;
    const refused = seams.refuse(overMinute || overDay, bucket, limits, windows, now);
    if (!refused) {
      bucket.minuteCount++;
      bucket.dayCount++;
    }
    const minuteLeft = limits.perMinute - bucket.minuteCount;
    const dayLeft = limits.perDay - bucket.dayCount;
    // Report the binding window: when refused, the one that must turn before a request is served again
    // (the day, if both are spent, turns later); otherwise the one with fewer requests left.
    const useDay = refused ? dayLeft <= 0 : dayLeft < minuteLeft;
    const dayEnd = bucket.dayStart + dayMs;
    const resetMs = useDay ? dayEnd : bucket.minuteStart + minuteMs;
    const info: RateInfo = {
      limit: useDay ? limits.perDay : limits.perMinute,
      remaining: Math.max(0, useDay ? dayLeft : minuteLeft),
      reset: Math.ceil(resetMs / 1000),
      resetMs,
      resetIn: Math.max(0, Math.ceil((resetMs - now) / 1000)),
      windowS: Math.round((useDay ? dayMs : minuteMs) / 1000),
    };
    if (refused) info.retryAfter = Math.max(1, Math.ceil((resetMs - now) / 1000));
    return info;
  }

  return {
    consume,
    anonymousBucket: (address, now) => anonymous.bucket(address, now),
    get anonymousAddresses() {
      return anonymous.size;
    },
  };
}
