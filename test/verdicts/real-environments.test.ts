import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { type ForwardProxy, type Gateway, TEST_CA, startForwardProxy, startGateway } from './support/network-fronts.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * Staging as teams deploy it: behind an access gateway that wants a header, over TLS with a private CA,
 * reached through a forward proxy. The reference behind them is conformant, so the run must be too; the
 * gateway's token and the key appear in no output. Each front counts what it saw, so a pass proves the
 * run went through it.
 */

const RUN_TIMEOUT_MS = 180_000;
const MAIN_KEY = 'staging-main-key-0123456789';
const EXHAUST_KEY = 'staging-exhaust-free-key-0123456789';
const TOKEN = { name: 'X-Gateway-Token', value: 'gateway-token-9f8e7d6c5b4a' };
const ENV = { API_KEY: MAIN_KEY, EXHAUST_API_KEY: EXHAUST_KEY };
const PLAN = 'enterprise:20000:10000000';

let server: ReferenceServer;
let tlsGateway: Gateway;
let plainGateway: Gateway;
let proxy: ForwardProxy;

beforeAll(async () => {
  server = await startReferenceServer({
    rateWindowMs: 2_000,
    keys: [
      { key: MAIN_KEY, plan: 'enterprise', perMinute: 20_000, perDay: 10_000_000 },
      { key: EXHAUST_KEY, plan: 'free' },
    ],
    log: () => undefined,
  });
  tlsGateway = await startGateway(server.url, TOKEN, { tls: true });
  plainGateway = await startGateway(server.url, TOKEN);
  proxy = await startForwardProxy();
});

afterAll(async () => {
  await Promise.all([tlsGateway.close(), plainGateway.close(), proxy.close()]);
  await server.close();
});

/** Every file of the report directory and both streams, for secrets. */
function everything(run: { stdout: string; stderr: string; reportDir: string }): string {
  const files = readdirSync(run.reportDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return [run.stdout, run.stderr, ...files.map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))].join('\n');
}

describe('staging behind a gateway, a private CA and a proxy', () => {
  test('the default profile through all three: CONFORMANT, every request through the proxy and the gateway, no secret in any output', async ({
    expect,
    onTestFinished,
  }) => {
    const before = { ...tlsGateway.seen, tunnels: proxy.seen.tunnels };
    const args = ['--target', tlsGateway.url, '--ca-cert', TEST_CA, '--header', `${TOKEN.name}: ${TOKEN.value}`, '--proxy', proxy.url, '--plan', PLAN];
    const run = await runCliInTest({ onTestFinished }, [...args, '--seed', '7'], {
      timeoutMs: RUN_TIMEOUT_MS,
      env: ENV,
      label: 'staging-fronts',
      rateWindowMs: 2_000,
    });
    const why = `${run.report?.verdict.label}: ${run.report?.verdict.why}\n${run.stderr.slice(-2000)}\n${run.stdout.slice(-2000)}`;
    expect(run.exitCode, why).toBe(0);
    expect(run.report?.verdict.overall, why).toBe('conformant');
    expect(run.report?.run.network).toEqual({ headers: [TOKEN.name], proxy: proxy.url, caCert: true, tlsVerified: true });
    expect(tlsGateway.seen.refused - before.refused).toBe(0);
    // HTTP-002's odd requests (no Host, an unknown Expect, CONNECT, bad bytes after a request and on a
    // connection of their own: five requests, six answers with the bad bytes' own) may be answered by the
    // gateway's own HTTP server, as any front on Node does; every other request reaches the target through it.
    const answeredByFront = run.report?.requirements.find((r) => r.id === 'HTTP-002')?.tests.reduce((sum, t) => sum + t.requests, 0) ?? 0;
    expect(answeredByFront).toBeLessThanOrEqual(6);
    expect(tlsGateway.seen.forwarded - before.forwarded).toBeGreaterThanOrEqual((run.report?.traffic.requestCount ?? Infinity) - answeredByFront);
    expect(proxy.seen.tunnels - before.tunnels).toBeGreaterThan(0);
    const all = everything(run);
    for (const secret of [TOKEN.value, MAIN_KEY, EXHAUST_KEY]) expect(all.includes(secret), secret).toBe(false);
  });

  test('an http target through the proxy goes in forward form, the header on every request', async ({ expect, onTestFinished }) => {
    const before = proxy.seen.forwarded;
    const args = ['--target', plainGateway.url, '--header', `${TOKEN.name}: ${TOKEN.value}`, '--plan', PLAN, '--profile', 'quick', '--only', 'auth'];
    const run = await runCliInTest({ onTestFinished }, args, {
      timeoutMs: RUN_TIMEOUT_MS,
      env: { ...ENV, HTTP_PROXY: proxy.url, NO_PROXY: 'example.com' },
      label: 'staging-forward',
    });
    // Loopback is never proxied from the environment (as curl and Go treat it): the proxy saw nothing.
    expect(run.exitCode, run.stderr).toBe(0);
    expect(proxy.seen.forwarded).toBe(before);
    const proxied = await runCliInTest({ onTestFinished }, [...args, '--proxy', proxy.url], { timeoutMs: RUN_TIMEOUT_MS, env: ENV, label: 'staging-forward' });
    expect(proxied.exitCode, proxied.stderr).toBe(0);
    expect(proxy.seen.forwarded - before).toBeGreaterThanOrEqual(proxied.report?.traffic.requestCount ?? Infinity);
    expect(plainGateway.seen.refused).toBe(0);
  });

  test.for([
    ['no --ca-cert', ['--header', `${TOKEN.name}: ${TOKEN.value}`], /not signed by a CA this run trusts \(\w+\): pass --ca-cert/],
    ['no gateway header', ['--ca-cert', TEST_CA], /answered 403 without rate-limit headers.*pass what it wants with --header 'Name: value'/],
    ['https on an http port', ['--https-on-http'], /did not answer TLS \(\w+\): is it http:\/\/ rather than https:\/\//],
  ] as [string, string[], RegExp][])('%s: exit 2 with one line of advice on stderr, before any test', async ([, extra, advice], { expect, onTestFinished }) => {
    const target = extra[0] === '--https-on-http' ? plainGateway.url.replace('http:', 'https:') : tlsGateway.url;
    const args = ['--target', target, '--plan', PLAN, '--profile', 'quick', ...(extra[0] === '--https-on-http' ? [] : extra)];
    const run = await runCliInTest({ onTestFinished }, args, { timeoutMs: RUN_TIMEOUT_MS, env: ENV, label: 'staging-advice' });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(advice);
    expect(run.report?.requirements.every((r) => r.tests.length === 0 || r.verdict !== 'pass')).toBe(true);
    expect(everything(run).includes(TOKEN.value)).toBe(false);
  });

  test('--insecure reaches a private-CA target, and every report and the console say its TLS was not verified', async ({ expect, onTestFinished }) => {
    const args = [
      '--target',
      tlsGateway.url,
      '--insecure',
      '--header',
      `${TOKEN.name}: ${TOKEN.value}`,
      '--plan',
      PLAN,
      '--profile',
      'quick',
      '--only',
      'auth',
    ];
    const run = await runCliInTest({ onTestFinished }, args, { timeoutMs: RUN_TIMEOUT_MS, env: ENV, label: 'staging-insecure' });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.report?.run.network?.tlsVerified).toBe(false);
    expect(run.stdout).toMatch(/TLS NOT VERIFIED \(--insecure\)/);
    expect(run.report?.run.command).toContain('--insecure');
  });
});
