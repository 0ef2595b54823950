import { afterAll, beforeAll, describe, test } from 'vitest';
import { PLAN_NAMES, type PlanName } from '../../src/config/plans.ts';
import { PROFILE_RULES } from '../../src/config/profiles.ts';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * Every plan finishes: the default remote run against a correct server ends CONFORMANT or PARTIAL (exit 0)
 * whatever the key's plan, and with a second, Free-plan key to spend on exhaustion it is CONFORMANT within
 * the standard budget. The server keeps the interface's plan limits; only its minute is short (2 s), so
 * a Free key's 60 requests a minute do not stretch the run to minutes.
 */

const RUN_TIMEOUT_MS = 120_000;
const WINDOW_MS = 2_000;
const SEED = '7';

const mainKey = (plan: PlanName) => `plan-test-${plan}-main-key-0123456789`;
const exhaustKey = (plan: PlanName) => `plan-test-${plan}-exhaust-free-key-0123456789`;
const PLAN_KEYS = { pro: 'plan-test-pro-plan-key-0123456789', free: 'plan-test-free-plan-key-0123456789' } as const;

let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({
    rateWindowMs: WINDOW_MS,
    keys: PLAN_NAMES.flatMap((plan) => [
      plan === 'enterprise' ? { key: mainKey(plan), plan, perMinute: 20_000, perDay: 10_000_000 } : { key: mainKey(plan), plan },
      // One exhaustion key per run: runs never spend each other's window.
      { key: exhaustKey(plan), plan: 'free' as const },
    ]).concat([
      { key: PLAN_KEYS.pro, plan: 'pro' },
      { key: PLAN_KEYS.free, plan: 'free' },
    ]),
    log: () => undefined,
  });
});

afterAll(async () => {
  await server.close();
});

describe('every plan finishes at the default remote profile', () => {
  for (const plan of PLAN_NAMES) {
    test(
      `${plan} key: CONFORMANT or PARTIAL, exit 0; the plan's limit checked (RATE-008) and its daily quota shown`,
      async ({ expect, onTestFinished }) => {
        const run = await runCliInTest({ onTestFinished }, ['--target', server.url, '--plan', plan, '--seed', SEED], {
          timeoutMs: RUN_TIMEOUT_MS,
          env: { API_KEY: mainKey(plan) },
          label: `plan-${plan}`,
          rateWindowMs: WINDOW_MS,
        });
        const report = run.report;
        const why = `${report?.verdict.label}: ${report?.verdict.why}\n${run.stdout.slice(-2000)}`;
        expect(run.exitCode, why).toBe(0);
        expect(['conformant', 'partial'], why).toContain(report?.verdict.overall);
        expect(report?.run.profile).toBe('standard');
        // The plan's limit is judged on the one key; the window's length only on a key the suite alone spends.
        const rate008 = report?.requirements.find((r) => r.id === 'RATE-008');
        expect(rate008?.tests.find((t) => /X-RateLimit-Limit is the per-minute/.test(t.name))?.state, why).toBe('passed');
        expect({ verdict: rate008?.verdict, code: rate008?.untestedCode }, why).toEqual({ verdict: 'partial', code: 'key-too-large' });
        // What stays untested is the exhaustion a big key cannot afford, each with the way to cover it.
        for (const untested of report?.verdict.scope.untested ?? []) {
          expect(untested.code, why).toBe('key-too-large');
          expect(untested.cover, why).toContain('--exhaust-key');
        }
        expect(report?.traffic.dailyQuota?.plan).toBe(plan);
        expect(report?.traffic.dailyQuota?.used, why).toBeGreaterThan(0);
        expect(run.stdout).toContain('Daily quota');
        // A Free key's window is spent several times: the run says what it waits for, with the budget used.
        if (plan === 'free') expect(run.stderr).toMatch(/waiting \d+ s for the rate limit .*; \d+ of 600 requests used/);
      },
      RUN_TIMEOUT_MS + 30_000,
    );

    test(
      `${plan} key with a Free --exhaust-key: CONFORMANT within the standard budget`,
      async ({ expect, onTestFinished }) => {
        // RATE-008 needs the key's plan (without it the run is PARTIAL); Enterprise states its custom limits.
        const stated = plan === 'enterprise' ? 'enterprise:20000:10000000' : plan;
        const run = await runCliInTest({ onTestFinished }, ['--target', server.url, '--plan', stated, '--seed', SEED], {
          timeoutMs: RUN_TIMEOUT_MS,
          env: { API_KEY: mainKey(plan), EXHAUST_API_KEY: exhaustKey(plan) },
          label: `plan-${plan}-exhaust`,
          rateWindowMs: WINDOW_MS,
        });
        const report = run.report;
        const why = `${report?.verdict.label}: ${report?.verdict.why}\n${run.stdout.slice(-2000)}`;
        expect(report?.verdict.overall, why).toBe('conformant');
        expect(run.exitCode, why).toBe(0);
        // Standard's budget is 600 requests on each key (PROFILE_RULES): the main key's, and the exhaustion
        // key's, which RATE-004 spends once and RATE-008's window length once more.
        const exhaustSent = report?.traffic.exhaustKeyRequests ?? Infinity;
        expect((report?.traffic.requestCount ?? Infinity) - exhaustSent, why).toBeLessThanOrEqual(PROFILE_RULES.standard.budget ?? 0);
        expect(exhaustSent, why).toBeLessThanOrEqual(PROFILE_RULES.standard.exhaustBudget ?? 0);
        // The exhaustion spent the second key twice, and the replay line names it without its value.
        expect(exhaustSent, why).toBeGreaterThanOrEqual(120);
        expect(report?.run.command).toContain('--exhaust-key "$EXHAUST_API_KEY"');
        expect(report?.run.command).toContain(`--plan ${stated}`);
        expect(report?.requirements.find((r) => r.id === 'RATE-008')?.verdict, why).toBe('pass');
        expect(run.stdout).not.toContain(exhaustKey(plan));
      },
      RUN_TIMEOUT_MS + 30_000,
    );
  }

  test(
    'the recommended set-up, a Business key with a Free --exhaust-key and Pro and Free --plan-key: CONFORMANT, no test skipped for the budget',
    async ({ expect, onTestFinished }) => {
      // A Pro key's minute alone is 301 requests: the plan keys cannot share the exhaustion key's 600.
      const run = await runCliInTest({ onTestFinished }, ['--target', server.url, '--plan', 'business', '--seed', SEED], {
        timeoutMs: RUN_TIMEOUT_MS,
        env: { API_KEY: mainKey('business'), EXHAUST_API_KEY: exhaustKey('business'), ASC_PLAN_KEY: `pro=${PLAN_KEYS.pro},free=${PLAN_KEYS.free}` },
        label: 'plan-keys',
        rateWindowMs: WINDOW_MS,
      });
      const report = run.report;
      const why = `${report?.verdict.label}: ${report?.verdict.why}\n${run.stdout.slice(-2000)}`;
      expect(report?.verdict.overall, why).toBe('conformant');
      expect(run.exitCode, why).toBe(0);
      expect(report?.verdict.scope.untested ?? [], why).toEqual([]);
      for (const id of ['RATE-004', 'RATE-008', 'RATE-011']) expect(report?.requirements.find((r) => r.id === id)?.verdict, `${id}: ${why}`).toBe('pass');
      for (const key of Object.values(PLAN_KEYS)) expect(run.stdout + run.stderr).not.toContain(key);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    "a key whose limit is exactly another plan's (a Pro key run as --plan business) is a wrong --plan: refused at start, the likely plan named",
    async ({ expect, onTestFinished }) => {
      const run = await runCliInTest({ onTestFinished }, ['--target', server.url, '--plan', 'business', '--only', 'RATE-008', '--seed', SEED], {
        timeoutMs: RUN_TIMEOUT_MS,
        env: { API_KEY: mainKey('pro') },
        label: 'plan-mismatch',
        rateWindowMs: WINDOW_MS,
      });
      // Not "the server fails RATE-008": the operator named the wrong plan, and is told which one is likely.
      expect(run.exitCode, run.stdout.slice(-1500)).toBe(2);
      expect(run.report?.verdict.overall).toBe('incomplete');
      expect(run.report?.harnessErrors[0]).toMatchObject({
        code: 'ERR_CONFIG',
        message: expect.stringMatching(/says 300: the pro plan's 300 a minute.*--plan pro$/),
      });
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'a refused --exhaust-key is a setup error: exit 2 before any test',
    async ({ expect, onTestFinished }) => {
      const run = await runCliInTest({ onTestFinished }, ['--target', server.url, '--seed', SEED], {
        timeoutMs: RUN_TIMEOUT_MS,
        env: { API_KEY: mainKey('pro'), EXHAUST_API_KEY: 'not-a-key-of-this-server-0123456789' },
        label: 'plan-bad-exhaust',
      });
      expect(run.exitCode, run.stdout + run.stderr).toBe(2);
      expect(run.report?.verdict.overall).toBe('incomplete');
      expect(run.stdout + run.stderr).toContain('exhaustion key');
      expect(run.stdout + run.stderr).not.toContain('not-a-key-of-this-server');
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
