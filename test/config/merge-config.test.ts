import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';

/** --merge-reports sends nothing: the target and its keys are the shards', never the merge command's. */
describe('the configuration of a merge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'merge-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("ignores a committed config's target and plan, and demands no key", () => {
    const file = join(dir, 'asc.yaml');
    writeFileSync(file, 'target: https://staging.example.com/v1\nplan: pro\n');
    // The same settings refuse a run without a key: that is what the merge must not inherit.
    expect(() => loadConfig({ flags: { config: file }, env: {}, cwd: dir })).toThrow(/an API key is required/);
    const merge = loadConfig({ flags: { config: file }, env: {}, cwd: dir, merging: true });
    expect(merge.target).toBeUndefined();
    expect(merge.apiKey).toBeUndefined();
    expect(merge.plan).toBeUndefined();
  });

  it('ignores a target and key in the environment, and --certify takes its profile from the shards', () => {
    const env = { ASC_TARGET: 'https://staging.example.com/v1', ASC_PLAN: 'pro', ASC_PROFILE: 'standard', ASC_HEADER: 'X-Tenant: abcdefgh' };
    const merge = loadConfig({ flags: { certify: join(dir, 'bundle') }, env, cwd: dir, merging: true });
    expect(merge.target).toBeUndefined();
    expect(merge.certifyDir).toBe(join(dir, 'bundle'));
    expect(merge.network.headers).toEqual([]);
    expect(() => loadConfig({ flags: { certify: join(dir, 'bundle') }, env: { ASC_PROFILE: 'standard' }, cwd: dir })).toThrow(
      /--certify needs --profile thorough/,
    );
  });

  it('--shard-key: a secret of 32 characters or more, for a shard with its run nonce or a merge; --trust-shards for a merge', () => {
    const key = 'ab'.repeat(16);
    const shard = { shard: '1/2', seed: '5' };
    expect(loadConfig({ flags: { ...shard, runNonce: 'run-1' }, env: { ASC_SHARD_KEY: key }, cwd: dir }).shardKey).toBe(key);
    expect(() => loadConfig({ flags: shard, env: { ASC_SHARD_KEY: key }, cwd: dir })).toThrow(/needs --run-nonce on a shard/);
    expect(() => loadConfig({ flags: { ...shard, runNonce: 'run-1' }, env: { ASC_SHARD_KEY: 'short' }, cwd: dir })).toThrow(/at least 32 printable characters/);
    // The secret is never echoed, even in the error that refuses it.
    expect(() => loadConfig({ flags: { ...shard, runNonce: 'run-1' }, env: { ASC_SHARD_KEY: 'short' }, cwd: dir })).not.toThrow(/short/);
    expect(() => loadConfig({ flags: {}, env: { ASC_SHARD_KEY: key }, cwd: dir })).toThrow(/applies to a shard .* or a merge/);
    expect(loadConfig({ flags: {}, env: { ASC_SHARD_KEY: key }, cwd: dir, merging: true }).shardKey).toBe(key);
    expect(loadConfig({ flags: { trustShards: true }, env: {}, cwd: dir, merging: true }).trustShards).toBe(true);
    expect(() => loadConfig({ flags: { trustShards: true }, env: {}, cwd: dir })).toThrow(/--trust-shards applies to --merge-reports/);
  });
});
