import { afterAll, beforeAll, describe, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { startTampering } from './support/hostile-servers.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * A legal header of 15,000 backslashes on every answer once cost the redactor seconds of CPU per
 * response, and a run with --max-duration 300 ended at 405 s. Redaction is linear now: the run ends within
 * its --max-duration with a report, whatever the target sends, and the key appears in no output.
 */

const KEY = 'hk7Qz9Vw3R1pX8m2Lb5T0yN4c6Jd';
const MAX_DURATION_S = 60;
// Generous: the deadline is checked between tests, and a loaded machine is slow to write the reports.
const GRACE_MS = 60_000;

let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ keys: [{ key: KEY, plan: 'enterprise', perMinute: 100_000, perDay: 10_000_000 }], log: () => undefined });
});

afterAll(async () => {
  await server.close();
});

describe('a target whose every answer carries a 15,000-backslash header', () => {
  test('the run ends within --max-duration, with a report, and no piece of the key in it', async ({ expect, onTestFinished }) => {
    const backslashes = '\\'.repeat(15_000);
    const hostile = await startTampering({ onTestFinished }, new URL(server.url).origin, (answer) => ({
      ...answer,
      headers: { ...answer.headers, 'x-escaped': backslashes },
    }));
    const started = Date.now();
    const run = await runCliInTest(
      { onTestFinished },
      ['--target', `${hostile.origin}/v1`, '--plan', 'enterprise:100000:10000000', '--max-duration', String(MAX_DURATION_S), '--seed', '3'],
      { timeoutMs: MAX_DURATION_S * 1_000 + GRACE_MS * 2, env: { API_KEY: KEY }, label: 'heavy-headers' },
    );
    const elapsed = Date.now() - started;
    expect(run.report, run.stderr.slice(-2000)).toBeDefined();
    // The header is legal: the reference behind it passes what was judged (its key is too large to exhaust).
    expect(run.exitCode, run.report?.verdict.why).toBe(0);
    expect(run.report?.requirements.filter((r) => r.verdict === 'fail').map((r) => r.id)).toEqual([]);
    expect(elapsed).toBeLessThan(MAX_DURATION_S * 1_000 + GRACE_MS);
    const all = `${run.stdout}\n${run.stderr}\n${JSON.stringify(run.report)}`;
    for (let at = 0; at + 8 <= KEY.length; at += 1) expect(all.includes(KEY.slice(at, at + 8)), KEY.slice(at, at + 8)).toBe(false);
  });
});
