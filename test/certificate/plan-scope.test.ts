import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { parsePlan } from '../../src/config/plans.ts';
import { buildReport } from '../../src/report/build-report.ts';
import type { TestOutcome } from '../../src/report/report-types.ts';
import { OPERATIONS, meta, outcome, runInfo } from '../support/report-builders.ts';

/** Every requirement the suite tests, each with one passing test: only the plan decides RATE-008. */
function allPassing(): TestOutcome[] {
  return loadCatalog()
    .requirements.filter((r) => r.coverage !== 'not-covered')
    .map((r) => ({ ...outcome('passed', meta(r.id, { level: r.level, area: r.area })), id: `t-${r.id}`, name: `${r.id} passes` }));
}

describe('RATE-008 is in scope on every run', () => {
  const build = (plan?: 'pro') =>
    buildReport({
      runInfo: runInfo(plan ? { plan } : {}),
      catalog: loadCatalog(),
      tests: allPassing(),
      harnessErrors: [],
      strict: false,
      operations: OPERATIONS,
    });

  it('a remote run without --plan is PARTIAL: RATE-008 untested, "give --plan"', () => {
    const report = build();
    expect(report.verdict.overall).toBe('partial');
    const rate = report.requirements.find((r) => r.id === 'RATE-008');
    expect(rate).toMatchObject({ verdict: 'skipped', untestedCode: 'no-plan' });
    expect(report.verdict.scope.untested).toEqual([
      expect.objectContaining({ id: 'RATE-008', code: 'no-plan', cover: expect.stringContaining('give --plan') }),
    ]);
  });

  it('with --plan it is tested, and the run can be CONFORMANT', () => {
    const report = build('pro');
    expect(report.verdict.overall).toBe('conformant');
    expect(report.requirements.find((r) => r.id === 'RATE-008')?.verdict).toBe('pass');
  });

  it('--plan takes free, pro, business, enterprise, or enterprise:<perMinute>:<perDay>', () => {
    expect(parsePlan('Pro')).toEqual({ plan: 'pro' });
    expect(parsePlan('enterprise:5000:200000')).toEqual({ plan: 'enterprise', limits: { perMinute: 5000, perDay: 200000 } });
    for (const bad of ['gold', 'pro:60:1000', 'enterprise:0:10', 'enterprise:10', 'enterprise:1e3:10', 'enterprise:-1:10'])
      expect(parsePlan(bad), bad).toBeUndefined();
    const config = loadConfig({ flags: { target: 'https://api.example/v1', apiKey: 'k', plan: 'enterprise:5000:200000' }, env: {}, cwd: '/' });
    expect(config).toMatchObject({ plan: 'enterprise', planLimits: { perMinute: 5000, perDay: 200000 } });
  });
});
