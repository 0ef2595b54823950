import { hash, timingSafeEqual } from 'node:crypto';
import type { ApiKey } from './api-keys.ts';
import { type Bucket, newBucket } from './rate-limiter.ts';

/** A configured key with its own counters; the server's principal for a successful request. */
export interface KeyRecord extends ApiKey {
  readonly bucket: Bucket;
}

/** Why a request was refused: with no bearer token at all, or with one that is not a key. */
export type AuthRefusal = 'no-token' | 'invalid-token';

export interface KeyRing {
  readonly records: readonly KeyRecord[];
  /** Strict check of an Authorization header value. */
  authenticate(authorization: string | undefined): KeyRecord | AuthRefusal;
  /** Exact, constant-time lookup of a token (no scheme). */
  find(token: string): KeyRecord | undefined;
}

const SCHEME = 'bearer';

export function createKeyRing(keys: readonly ApiKey[]): KeyRing {
  const records: KeyRecord[] = keys.map((key) => ({ ...key, bucket: newBucket() }));
  // Keyed by the SHA-256 of the key, so lookup time depends on a digest an attacker cannot steer,
  // and the final comparison runs on equal-length buffers whatever the token's length.
  const byDigest = new Map<string, { record: KeyRecord; digest: Buffer }>();
  for (const record of records) {
    const digest = hash('sha256', record.key, 'buffer');
    byDigest.set(digest.toString('latin1'), { record, digest });
  }

  function find(token: string): KeyRecord | undefined {
    const digest = hash('sha256', token, 'binary');
    const entry = byDigest.get(digest);
    if (!entry) return undefined;
    return timingSafeEqual(Buffer.from(digest, 'latin1'), entry.digest) ? entry.record : undefined;
  }

  function authenticate(authorization: string | undefined): KeyRecord | AuthRefusal {
    // Node has already trimmed the value; exactly "<scheme> <token>" with one space is accepted.
    if (authorization === undefined || authorization.length <= SCHEME.length + 1) return 'no-token';
    if (authorization.charCodeAt(SCHEME.length) !== 32) return 'no-token';
    if (authorization.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return 'no-token';
    const token = authorization.slice(SCHEME.length + 1);
    if (token.includes(' ') || token.includes('\t')) return 'invalid-token';
    return find(token) ?? 'invalid-token';
  }

  return { records, authenticate, find };
}
