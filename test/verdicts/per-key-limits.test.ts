import { afterAll, beforeAll, describe, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * Limits belong to keys. A remote target that counts requests per client address instead, run with two
 * Free keys (--api-key and --exhaust-key), as an outside tester found it CONFORMANT: the exhaust key's
 * first answer already counted the main key's requests. It must be NOT CONFORMANT with RATE-011 failing.
 * The server keeps the Free plan's limits; only its minute is short (2 s), as in plans.test.ts.
 */

const RUN_TIMEOUT_MS = 120_000;
const MAIN = 'per-key-main-free-key-0123456789abcdef';
const EXHAUST = 'per-key-exhaust-free-key-0123456789abcd';

let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({
    rateWindowMs: 2_000,
    keys: [
      { key: MAIN, plan: 'free' },
      { key: EXHAUST, plan: 'free' },
    ],
    faults: ['ratelimit-per-address'],
    log: () => undefined,
  });
});

afterAll(async () => {
  await server.close();
});

describe('rate limits counted per address, not per key', () => {
  test(
    'two Free keys from one client: NOT CONFORMANT, RATE-011 failing on paired observations',
    async ({ expect, onTestFinished }) => {
      const run = await runCliInTest({ onTestFinished }, ['--target', server.url, '--plan', 'free', '--only', 'rate-limit', '--seed', '4'], {
        timeoutMs: RUN_TIMEOUT_MS,
        env: { API_KEY: MAIN, EXHAUST_API_KEY: EXHAUST },
        label: 'per-address',
        rateWindowMs: 2_000,
      });
      const report = run.report;
      const why = `${report?.verdict.label}: ${report?.verdict.why}\n${run.stdout.slice(-2500)}`;
      expect(run.exitCode, why).toBe(1);
      expect(report?.verdict.overall, why).toBe('not-conformant');
      const rate011 = report?.requirements.find((r) => r.id === 'RATE-011');
      expect(rate011?.verdict, why).toBe('fail');
      // The finding rests on the pair of readings around the main key's burst, shown as evidence.
      expect(rate011?.failures[0]?.evidence?.length, why).toBeGreaterThanOrEqual(4);
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
