import { describe, expect, it } from 'vitest';
import { isHarnessError } from '../../src/errors.ts';
import { INT64_MAX } from '../../src/text/json.ts';
import { checkSettings } from '../../src/reference/settings.ts';
import { resolveApiKey, resolveApiKeys } from '../../src/reference/startup/key-config.ts';
import { checkDefaultStatus } from '../../src/reference/startup/settings-checks.ts';

// The start-up checks are left out of mutation (mutation/targets.mjs): these tests hold them instead.

function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isHarnessError(error) && error.code === 'ERR_CONFIG') return error.message;
    throw error;
  }
  throw new Error('no ERR_CONFIG was thrown');
}

describe('reference start-up: option checks', () => {
  it('resolves the defaults of an empty option set', () => {
    const settings = checkSettings({});
    expect(settings).toMatchObject({ port: 0, host: '127.0.0.1', basePath: '/v1', rateWindowMs: 60_000, delayMs: 0, idStart: 1n });
    expect(settings.anonymousLimits).toEqual({ perMinute: 600, perDay: 100_000 });
    expect(checkSettings({ basePath: '', delayMs: 0 }).basePath).toBe('');
  });

  it('refuses each invalid option by name', () => {
    expect(configError(() => checkSettings({ basePath: 'v1' }))).toContain('basePath');
    expect(configError(() => checkSettings({ basePath: '/v1/' }))).toContain('basePath');
    expect(configError(() => checkSettings({ basePath: '/v 1' }))).toContain('basePath');
    expect(configError(() => checkSettings({ port: 65_536 }))).toContain('port');
    expect(configError(() => checkSettings({ port: 1.5 }))).toContain('port');
    expect(configError(() => checkSettings({ idStart: INT64_MAX + 1n }))).toContain('idStart');
    expect(configError(() => checkSettings({ nameLength: { min: 3, max: 2 } }))).toContain('nameLength');
    expect(configError(() => checkSettings({ rateWindowMs: 0 }))).toContain('rateWindowMs');
    expect(configError(() => checkSettings({ anonymousLimits: { perMinute: 1, perDay: 0.5 } }))).toContain('anonymousLimits.perDay');
    expect(configError(() => checkSettings({ maxConnections: -1 }))).toContain('maxConnections');
    expect(configError(() => checkSettings({ delayMs: -5 }))).toContain('delayMs');
    expect(configError(() => checkDefaultStatus('lost', ['available', 'sold']))).toContain('available, sold');
    expect(() => checkDefaultStatus(undefined, ['available'])).not.toThrow();
  });
});

describe('reference start-up: key configuration', () => {
  it("takes a plan's limits from the interface's table, and an Enterprise key's from its configuration", () => {
    expect(resolveApiKey({ key: 'k1-abcdef', plan: 'Pro' })).toEqual({ key: 'k1-abcdef', plan: 'pro', perMinute: 300, perDay: 10_000 });
    expect(resolveApiKey({ key: 'k2-abcdef', plan: 'free', perMinute: 5 })).toMatchObject({ perMinute: 5, perDay: 1_000 });
    expect(resolveApiKey({ key: 'k3-abcdef', plan: 'enterprise', perMinute: 7, perDay: 9 })).toMatchObject({ perMinute: 7, perDay: 9 });
  });

  it('refuses a key that is no token68, an unknown plan, missing or invalid numbers, and a duplicate', () => {
    expect(configError(() => resolveApiKey({ key: 'has space', plan: 'free' }))).toContain('token68');
    expect(configError(() => resolveApiKey({ key: 'k1-abcdef', plan: 'gold' }))).toContain('unknown plan');
    expect(configError(() => resolveApiKey({ key: 'k1-abcdef', plan: 'enterprise', perMinute: 7 }))).toContain('needs perMinute and perDay');
    expect(configError(() => resolveApiKey({ key: 'k1-abcdef', plan: 'pro', perDay: 0 }))).toContain('perDay');
    const twice = { key: 'k1-abcdef', plan: 'pro' };
    expect(configError(() => resolveApiKeys([twice, twice]))).toContain('given twice');
  });
});
