/**
 * The rate-limit buckets of unauthenticated clients, by address. IPv6 clients choose addresses freely:
 * the map stays bounded and each new address costs constant time, however many come. Beyond the cap,
 * stale buckets are dropped, and if none is stale the address seen longest ago makes room.
 */
export interface AnonymousBuckets<Bucket> {
  bucket(address: string, now: number): Bucket;
  readonly size: number;
}

const PRUNE_AT = 10_000;

export function createAnonymousBuckets<Bucket extends { readonly dayStart: number }>(
  windows: { readonly minuteMs: number; readonly dayMs: number },
  newBucket: () => Bucket,
  pruneAt = PRUNE_AT,
): AnonymousBuckets<Bucket> {
  const buckets = new Map<string, Bucket>();
  let nextPrune = 0;

  function makeRoom(now: number): void {
    // The scan for stale buckets runs at most once a window, not once per new address.
    if (now >= nextPrune) {
      for (const [key, old] of buckets) if (now >= old.dayStart + windows.dayMs) buckets.delete(key);
      nextPrune = now + windows.minuteMs;
    }
    // A Map keeps insertion order: the first key is the address seen longest ago.
    for (const key of buckets.keys()) {
      if (buckets.size < pruneAt) break;
      buckets.delete(key);
    }
  }

  return {
    bucket(address, now) {
      let bucket = buckets.get(address);
      if (!bucket) {
        if (buckets.size >= pruneAt) makeRoom(now);
        bucket = newBucket();
        buckets.set(address, bucket);
      }
      return bucket;
    },
    get size() {
      return buckets.size;
    },
  };
}
