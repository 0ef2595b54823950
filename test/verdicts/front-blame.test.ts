import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { startGateway } from './support/network-fronts.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * Blame where it belongs: a gateway with Node's own 16 KiB head limit answers the suite's 24 KiB header
 * probe with a bare 431 before the server sees it. The failure stands (the suite judges the one HTTP
 * interface it is given), but the console, the HTML report and the job summary say the answer probably
 * came from something in front, and how to tell.
 */

const KEY = 'front-blame-key-0123456789abcdef';
const TOKEN = { name: 'X-Gateway-Token', value: 'front-blame-token-0a1b2c3d4e' };

test('a bare 431 from a gateway in front: RATE-001 fails, flagged as probably from in front, with how to tell', async ({ expect, onTestFinished }) => {
  const server = await startReferenceServer({ keys: [{ key: KEY, plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 }], log: () => undefined });
  onTestFinished(() => server.close());
  const gateway = await startGateway(server.url, TOKEN, { maxHeaderSize: 16 * 1024 });
  onTestFinished(() => gateway.close());
  const args = ['--target', gateway.url, '--header', `${TOKEN.name}: ${TOKEN.value}`, '--only', 'auth,RATE-001', '--profile', 'quick', '--seed', '5'];
  const run = await runCliInTest({ onTestFinished }, args, { timeoutMs: 180_000, env: { API_KEY: KEY, GITHUB_STEP_SUMMARY: '' }, label: 'front-blame' });
  const why = `${run.report?.verdict.why}\n${run.stdout.slice(-3000)}`;
  expect(run.exitCode, why).toBe(1);
  expect(run.report?.requirements.find((r) => r.id === 'RATE-001')?.verdict, why).toBe('fail');
  expect(run.stdout, why).toMatch(
    /probably answered by something in front of the server .*no X-RateLimit-\* headers.*To tell, send the curl line to the server directly/,
  );
  expect(readFileSync(join(run.reportDir, 'conformance.html'), 'utf8')).toContain('probably answered by something in front of the server');
});
