import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

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
});
