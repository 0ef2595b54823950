import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A shard's proof that its blob and record are the ones a runner given the merge's secret wrote for the
 * merge's nonce: HMAC-SHA256, under the shard key (--shard-key), of the nonce, the shard's place, the
 * blob's sha256 and the sha256 of the record without this field. An edit to either file, a shard of
 * another run (another nonce) or of someone without the key does not authenticate.
 */
export interface ShardAuth {
  alg: typeof SHARD_MAC_ALG;
  blobSha256: string;
  mac: string;
}

export const SHARD_MAC_ALG = 'hmac-sha256';

const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** What the MAC covers; `record` is the record as JSON without its `auth` (JSON.stringify keeps key order, so reading it back gives the same text). */
function macInput(nonce: string, shard: string, blobSha256: string, record: Record<string, unknown>): string {
  return ['animal-store-conformance shard v1', nonce, shard, blobSha256, sha256(JSON.stringify(record))].join('\u0000');
}

/** The field a shard adds to its record. */
export function shardAuth(key: string, blob: Buffer, record: Record<string, unknown> & { run: { runNonce?: string; shard?: string } }): ShardAuth {
  const blobSha256 = sha256(blob);
  const input = macInput(record.run.runNonce ?? '', record.run.shard ?? '', blobSha256, record);
  return { alg: SHARD_MAC_ALG, blobSha256, mac: createHmac('sha256', key).update(input).digest('hex') };
}

/**
 * Why a shard does not authenticate under `key`, or undefined when it does. `record` is as read (with
 * its `auth`); `nonce`, when given, is the one the merge issued and the shard must carry.
 */
export function shardAuthProblem(key: string, blob: Buffer, record: Record<string, unknown>, nonce: string | undefined): string | undefined {
  const { auth, ...rest } = record as Record<string, unknown> & { auth?: Partial<ShardAuth> };
  if (auth === undefined) return 'it carries no MAC (run it with the shard key: --shard-key or ASC_SHARD_KEY)';
  if (auth === null || typeof auth !== 'object' || auth.alg !== SHARD_MAC_ALG || typeof auth.mac !== 'string') return 'its MAC is not one this suite writes';
  const run = (rest.run ?? {}) as { runNonce?: unknown; shard?: unknown };
  if (typeof run.runNonce !== 'string') return 'it carries no run nonce';
  if (nonce !== undefined && run.runNonce !== nonce) return 'its run nonce is not the one this merge issued (--run-nonce)';
  // The MAC is made again from the files as read: the blob's bytes and the record less its auth.
  const blobSha256 = sha256(blob);
  const input = macInput(run.runNonce, typeof run.shard === 'string' ? run.shard : '', blobSha256, rest);
  const mac = Buffer.from(createHmac('sha256', key).update(input).digest('hex'));
  const given = Buffer.from(auth.mac);
  if (given.length !== mac.length || !timingSafeEqual(given, mac))
    return auth.blobSha256 !== blobSha256
      ? 'its blob is not the one its MAC was made for (edited, or another shard)'
      : 'its MAC does not verify with the shard key (an edited record, another key or another run)';
  return undefined;
}

/**
 * Why the shards of a merge are not those it issued its nonce to (`nonce`: every shard carries it) or,
 * with the shard key, why a blob and record are not exactly what a holder of the key wrote for that nonce;
 * one line per shard, naming it. Empty: every shard authenticates (or, without a key, carries the nonce).
 */
export function shardSetAuthProblems(
  shards: { blobDir: string; blobs: readonly string[]; records: ReadonlyArray<{ run: { runNonce?: string } }> },
  given: { key: string | undefined; nonce: string | undefined },
): string[] {
  return shards.records.flatMap((record, i) => {
    const name = shards.blobs[i] ?? '?';
    if (given.nonce !== undefined && record.run.runNonce !== given.nonce) return [`${name}: its run nonce is not the one this merge issued (--run-nonce)`];
    if (given.key === undefined) return [];
    const problem = shardAuthProblem(given.key, readFileSync(join(shards.blobDir, name)), record as unknown as Record<string, unknown>, given.nonce);
    return problem ? [`${name}: ${problem}`] : [];
  });
}
