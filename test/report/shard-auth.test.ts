import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkShardsVouchedFor } from '../../src/cli/merge-shards.ts';
import { type ShardRecord, readShardSet, shardRecordPath, shardSetAuthProblems, writeShardRecord } from '../../src/report/index.ts';
import type { RunInfo } from '../../src/report/run-info.ts';
import { runInfo } from '../support/report-builders.ts';

const KEY = 'k'.repeat(20) + '0123456789abcdef';
const OTHER_KEY = 'o'.repeat(20) + '0123456789abcdef';

/** A shard's record as a run writes it (shardRecordOf), for a blob of made-up bytes. */
function record(shard: string, run: Partial<RunInfo> = {}, faults: string[] = []): Omit<ShardRecord, 'format' | 'auth'> {
  return {
    run: runInfo({ shard, runNonce: 'nonce-1', ...run }),
    deviations: [],
    verdict: { overall: 'partial', exitCode: 0 },
    problems: [],
    tests: [{ id: `t-${shard}`, state: 'passed', requests: 1, observed: 0 }],
    requestCount: 1,
    reference: { faults, variants: [] },
  };
}

/**
 * Authenticated shards (issue 48 item 4): the merge issues the nonce and the key, each shard MACs its blob
 * and record, and a shard that does not authenticate is refused, in-process on the files a merge reads.
 */
describe('shards authenticated by the merge', () => {
  const root = mkdtempSync(join(tmpdir(), 'shard-auth-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** Two shards written as a run writes them, `edit` applied to the files afterwards; the set as the merge reads it. */
  function shards(label: string, options: { key?: string; nonce?: string; second?: Partial<RunInfo>; faults?: string[] } = {}, edit?: (dir: string) => void) {
    const dir = join(root, label);
    mkdirSync(dir);
    for (const [i, extra, faults] of [
      ['1', {}, []],
      ['2', options.second ?? {}, options.faults ?? []],
    ] as const) {
      const blob = join(dir, `blob-${i}-2.json`);
      writeFileSync(blob, JSON.stringify({ files: [`shard ${i}`], passed: true }));
      writeShardRecord(blob, record(`${i}/2`, { ...(options.nonce ? { runNonce: options.nonce } : {}), ...extra }, [...faults]), options.key);
    }
    edit?.(dir);
    return readShardSet(dir);
  }
  const editRecord = (dir: string, change: (r: ShardRecord) => void) => {
    const path = shardRecordPath(join(dir, 'blob-2-2.json'));
    const value = JSON.parse(readFileSync(path, 'utf8')) as ShardRecord;
    change(value);
    writeFileSync(path, JSON.stringify(value, null, 2));
  };
  const problems = (set: ReturnType<typeof shards>, key: string | undefined, nonce: string | undefined) => {
    try {
      return shardSetAuthProblems(set, { key, nonce });
    } finally {
      set.dispose();
    }
  };

  it('shards MACed with the key and the nonce the merge issued authenticate', () => {
    expect(problems(shards('genuine', { key: KEY }), KEY, 'nonce-1')).toEqual([]);
  });

  it('a shard whose unsigned-looking run nonce was edited to this run is refused', () => {
    // The forger's shard of another run, its nonce edited to this one: the MAC was made for the other.
    const set = shards('edited-nonce', { key: KEY, second: { runNonce: 'nonce-0' } }, (dir) => editRecord(dir, (r) => (r.run.runNonce = 'nonce-1')));
    expect(problems(set, KEY, 'nonce-1')).toEqual(['blob-2-2.json: its MAC does not verify with the shard key (an edited record, another key or another run)']);
  });

  it('the shards of another run, left as they are, are refused by the nonce the merge issued', () => {
    const set = shards('other-run', { key: KEY, nonce: 'nonce-0' });
    expect(problems(set, KEY, 'nonce-1')).toEqual([
      'blob-1-2.json: its run nonce is not the one this merge issued (--run-nonce)',
      'blob-2-2.json: its run nonce is not the one this merge issued (--run-nonce)',
    ]);
    // Without a key, the nonce given to the merge still refuses them.
    expect(problems(shards('other-run-keyless', { nonce: 'nonce-0' }), undefined, 'nonce-1')).toHaveLength(2);
  });

  it('an edited blob, an edited record, an unauthenticated shard and another key are refused', () => {
    const blobEdited = shards('blob-edited', { key: KEY }, (dir) =>
      writeFileSync(join(dir, 'blob-2-2.json'), JSON.stringify({ files: ['shard 2'], passed: false })),
    );
    expect(problems(blobEdited, KEY, 'nonce-1')).toEqual(['blob-2-2.json: its blob is not the one its MAC was made for (edited, or another shard)']);
    const recordEdited = shards('record-edited', { key: KEY }, (dir) => editRecord(dir, (r) => (r.requestCount = 7)));
    expect(problems(recordEdited, KEY, 'nonce-1')).toEqual([
      'blob-2-2.json: its MAC does not verify with the shard key (an edited record, another key or another run)',
    ]);
    const bare = shards('unauthenticated', {}, undefined);
    expect(problems(bare, KEY, 'nonce-1')).toEqual([
      'blob-1-2.json: it carries no MAC (run it with the shard key: --shard-key or ASC_SHARD_KEY)',
      'blob-2-2.json: it carries no MAC (run it with the shard key: --shard-key or ASC_SHARD_KEY)',
    ]);
    const stripped = shards('auth-stripped', { key: KEY }, (dir) => editRecord(dir, (r) => delete r.auth));
    expect(problems(stripped, KEY, 'nonce-1')).toHaveLength(1);
    expect(problems(shards('other-key', { key: OTHER_KEY }), KEY, 'nonce-1')).toHaveLength(2);
  });

  it('shards of different targets, seeds or reference faults are not one run', () => {
    expect(() => shards('other-target', { second: { target: { url: 'https://elsewhere.example/v1', embedded: false } } })).toThrow(/differ in target/);
    expect(() => shards('other-seed', { second: { seed: 7 } })).toThrow(/differ in seed/);
    expect(() => shards('faulty-and-clean', { faults: ['list-drops-oldest'] })).toThrow(
      /differ in the embedded reference's faults and variants .*no faults; no variants \(blob-1-2\.json\) vs list-drops-oldest; no variants \(blob-2-2\.json\)/,
    );
    // A record without the faults it ran is not one this suite writes.
    expect(() => shards('no-reference', {}, (dir) => editRecord(dir, (r) => delete (r as Partial<ShardRecord>).reference))).toThrow(
      /is not a shard record of this suite/,
    );
  });

  it('--certify of a merge signs only authenticated shards, or with --trust-shards', () => {
    expect(() => checkShardsVouchedFor({ certifyDir: 'bundle', shardKey: undefined, trustShards: false })).toThrow(/its shards are not authenticated/);
    expect(() => checkShardsVouchedFor({ certifyDir: 'bundle', shardKey: KEY, trustShards: false })).not.toThrow();
    expect(() => checkShardsVouchedFor({ certifyDir: 'bundle', shardKey: undefined, trustShards: true })).not.toThrow();
    expect(() => checkShardsVouchedFor({ certifyDir: undefined, shardKey: undefined, trustShards: false })).not.toThrow();
  });
});
