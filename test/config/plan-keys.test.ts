import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { parsePlanKey } from '../../src/config/plans.ts';

const TARGET = 'https://staging.example/v1';
const KEY = 'key-0123456789-abcdef';
const FREE = 'free-key-0123456789';
const PRO = 'pro-key-0123456789';

const cwd = () => tempDir('asc-plan-keys-');

describe('--plan-key <plan>=<key>', () => {
  it('reads a plan the interface states and a key; refuses Enterprise, an unknown plan, an empty key', () => {
    expect(parsePlanKey(`free=${FREE}`)).toEqual({ plan: 'free', key: FREE });
    expect(parsePlanKey(` Pro = ${PRO} `)).toEqual({ plan: 'pro', key: PRO });
    // A key may hold '=' (base64): only the first one separates the plan.
    expect(parsePlanKey('business=abc==')).toEqual({ plan: 'business', key: 'abc==' });
    for (const bad of ['free', `=${FREE}`, 'free=', `enterprise=${FREE}`, `gold=${FREE}`, 'free=a b']) expect(parsePlanKey(bad), bad).toBeUndefined();
  });

  it('is repeatable on the command line, a comma list in ASC_PLAN_KEY', () => {
    const flags = loadConfig({ flags: { target: TARGET, apiKey: KEY, planKey: [`free=${FREE}`, `pro=${PRO}`] }, env: {}, cwd: cwd() });
    expect(flags.planKeys).toEqual([
      { plan: 'free', key: FREE },
      { plan: 'pro', key: PRO },
    ]);
    const env = loadConfig({ env: { ASC_TARGET: TARGET, ASC_API_KEY: KEY, ASC_PLAN_KEY: `free=${FREE},pro=${PRO}` }, cwd: cwd() });
    expect(env.planKeys).toEqual(flags.planKeys);
    expect(loadConfig({ flags: { target: TARGET, apiKey: KEY }, env: {}, cwd: cwd() }).planKeys).toEqual([]);
  });

  it('refuses a malformed entry without echoing it, a key given twice or shared with another option, an embedded run', () => {
    const base = { target: TARGET, apiKey: KEY };
    const load =
      (planKey: string[], extra: Record<string, string> = {}) =>
      () =>
        loadConfig({ flags: { ...base, ...extra, planKey }, env: {}, cwd: cwd() });
    expect(load([`free=${FREE}`, `gold=${PRO}`])).toThrow(/^--plan-key: entry 2 must be <plan>=<key>, the plan free, pro or business$/);
    expect(load([`gold=${PRO}`])).not.toThrow(new RegExp(PRO));
    expect(load([`free=${FREE}`, `pro=${FREE}`])).toThrow(/names one key twice/);
    expect(load([`free=${KEY}`])).toThrow(/repeats --api-key or --exhaust-key/);
    expect(load([`free=${FREE}`], { exhaustKey: FREE })).toThrow(/repeats --api-key or --exhaust-key/);
    expect(() => loadConfig({ flags: { planKey: [`free=${FREE}`] }, env: {}, cwd: cwd() })).toThrow(/applies to a remote target/);
  });
});
