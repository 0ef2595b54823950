import type { Limits } from './api-keys.ts';
import { createAnonymousBuckets } from './anonymous-buckets.ts';
import { type Bucket, type RateLimiter, type RateWindows, type Refuse, createRateLimiter, newBucket } from './rate-limiter.ts';
import type { RateInfo } from './replies.ts';

/**
 * The per-minute limit as a sliding log (a valid variant: the interface does not say how a window is
 * kept): a request is served while fewer than the limit were served in the window before it. A slot
 * frees when the oldest of those leaves the window, and that is what X-RateLimit-Reset and Retry-After
 * name; a key is whole again only a window after its last request. The day stays a fixed window.
 */
export function createSlidingLogLimiter(windows: RateWindows, seams: { readonly refuse: Refuse }): RateLimiter {
  const { minuteMs, dayMs } = windows;
  const anonymous = createAnonymousBuckets(windows, newBucket);
  // The times of each principal's served requests in the window, oldest first (per server, per bucket).
  const logs = new WeakMap<Bucket, number[]>();

  function consume(bucket: Bucket, limits: Limits, now: number): RateInfo {
    const log = (logs.get(bucket) ?? []).filter((at) => at > now - minuteMs && at <= now);
    logs.set(bucket, log);
    // The bucket says what a fault's seam reads: the window's count, from its oldest request.
    bucket.minuteStart = log[0] ?? now;
    bucket.minuteCount = log.length;
    if (now >= bucket.dayStart + dayMs || now < bucket.dayStart) {
      bucket.dayStart = now - (now % dayMs);
      bucket.dayCount = 0;
    }
    const refused = seams.refuse(log.length >= limits.perMinute || bucket.dayCount >= limits.perDay, bucket, limits, windows, now);
    if (!refused) {
      log.push(now);
      bucket.minuteCount = log.length;
      bucket.dayCount++;
    }
    const minuteLeft = limits.perMinute - log.length;
    const dayLeft = limits.perDay - bucket.dayCount;
    const useDay = refused ? dayLeft <= 0 : dayLeft < minuteLeft;
    // The slot the next request needs frees when the oldest request of the window leaves it.
    const resetMs = useDay ? bucket.dayStart + dayMs : (log[0] ?? now) + minuteMs;
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

/** The limiter a server keeps its per-minute windows with (ReferenceOptions.rateLimiter): fixed windows unless a sliding log. */
export function createLimiterOf(kind: 'fixed-window' | 'sliding-log' | undefined): typeof createRateLimiter {
  return kind === 'sliding-log' ? createSlidingLogLimiter : createRateLimiter;
}
