import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { startTampering } from './support/hostile-servers.ts';
import { startForwardProxy } from './support/network-fronts.ts';
import { runCliInTest } from './support/run-cli.ts';
import { addressLatch, looksLikeUndici, startAgingFront, startBypassFront } from './support/wire-fronts.ts';

/**
 * Targets that tell the suite from other clients by the wire, not by anything a request says: undici's
 * header order, or the address the suite's marked traffic came from. Each serves other clients with any
 * key or none and without rate-limit headers; CON-004's differential requests (curl's and a browser's
 * header order, by a second HTTP stack, and through a second vantage point) must show it.
 */

const KEY = 'wire-target-key-0123456789abcdef0123';
const BOUND_MS = 90_000;

let upstream: ReferenceServer;

beforeAll(async () => {
  upstream = await startReferenceServer({ keys: [{ key: KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }], log: () => undefined });
});

afterAll(async () => {
  await upstream.close();
});

const origin = () => upstream.url.replace(/\/v1$/, '');
const only = ['--profile', 'standard', '--only', 'CON-004', '--seed', '5'];

describe('targets that tell the suite apart on the wire', () => {
  // The run's own heads go out as curl writes them (src/client/wire-shape.ts): a front that serves every
  // head but undici's with any key meets the suite as it meets curl, and the suite's own request without
  // a key, answered 200, fails AUTH-001. A front that serves browser-shaped heads apart (a Connection
  // field, which the run no longer writes) is shown by CON-004's second stack writing Chrome's head.
  const wireCases = [
    { name: "every client whose head is not undici's", bypass: (req: IncomingMessage) => !looksLikeUndici(req), fails: 'AUTH-001', shown: undefined },
    {
      name: 'every client whose head carries a Connection field (browsers)',
      bypass: (req: IncomingMessage) => req.rawHeaders.some((name, i) => i % 2 === 0 && name.toLowerCase() === 'connection'),
      fails: 'CON-004',
      shown: "as Chrome's fetch() writes it",
    },
  ];
  for (const { name, bypass, fails, shown } of wireCases) {
    test(
      `serves ${name} with any key: NOT CONFORMANT, ${fails} failing`,
      async ({ expect, onTestFinished }) => {
        const front = await startBypassFront({ onTestFinished }, origin(), KEY, bypass);
        const args = ['--target', `${front.origin}/v1`, '--profile', 'standard', '--only', 'CON-004,AUTH-001', '--seed', '5'];
        const run = await runCliInTest({ onTestFinished }, args, { timeoutMs: BOUND_MS, env: { API_KEY: KEY }, label: 'wire' });
        const why = `${run.report?.verdict.why}\n${run.stdout.slice(-2500)}`;
        expect(run.exitCode, why).toBe(1);
        expect(run.report?.verdict.overall, why).toBe('not-conformant');
        const failed = run.report?.requirements.find((r) => r.id === fails);
        expect(failed?.verdict, why).toBe('fail');
        if (shown) expect(JSON.stringify(failed), why).toContain(shown);
      },
      BOUND_MS + 30_000,
    );
  }

  for (const latched of [true, false]) {
    test(
      latched
        ? 'latches on the address of the first marked request, serves every other with any key: NOT CONFORMANT through --vantage-proxy'
        : 'a correct server reached through --vantage-proxy too: CON-004 passes',
      async ({ expect, onTestFinished }) => {
        const front = await startBypassFront({ onTestFinished }, origin(), KEY, latched ? addressLatch() : () => false);
        // The second vantage point: a proxy whose tunnels leave from 127.0.0.2, an address the suite's own traffic never comes from.
        const proxy = await startForwardProxy({ localAddress: '127.0.0.2' });
        onTestFinished(() => proxy.close());
        // --announce: the suite names itself (a run looks like an ordinary client otherwise), and the front latches on that.
        const run = await runCliInTest({ onTestFinished }, ['--target', `${front.origin}/v1`, '--vantage-proxy', proxy.url, '--announce', ...only], {
          timeoutMs: BOUND_MS,
          env: { API_KEY: KEY },
          label: 'latch',
        });
        const why = `${run.report?.verdict.why}\n${run.stdout.slice(-2500)}`;
        expect(proxy.seen.tunnels, why).toBeGreaterThan(0);
        const verdict = run.report?.requirements.find((r) => r.id === 'CON-004')?.verdict;
        if (latched) {
          expect(run.exitCode, why).toBe(1);
          expect(run.report?.verdict.overall, why).toBe('not-conformant');
          expect(verdict, why).toBe('fail');
          // Shown only from the address the front has not latched on.
          expect(JSON.stringify(run.report?.requirements.find((r) => r.id === 'CON-004')), why).toContain('through the second vantage point');
        } else {
          expect(verdict, why).toBe('pass');
          expect(run.report?.harnessErrors, why).toEqual([]);
        }
      },
      BOUND_MS + 30_000,
    );
  }
});

describe('stray answers on kept-alive connections, wherever they are sent', () => {
  const cases = [
    {
      name: "after each answer to a request with a User-Agent (the probe sends the run's too)",
      extra: (req: IncomingMessage) => req.headers['user-agent'] !== undefined,
      only: 'HTTP-001',
      mentions: /more bytes within \d+ ms: \\"HTTP\/1\.1 200/,
    },
    {
      name: 'after each answer to a request without an Accept header (the raw probes always send one)',
      extra: (req: IncomingMessage) => req.headers.accept === undefined,
      only: 'HTTP-001,CON-004',
      mentions: /received bytes while no request was in flight on it, before this response: \\"HTTP\/1\.1 200/,
    },
  ];
  for (const { name, extra, only: ids, mentions } of cases) {
    test(
      `${name}: NOT CONFORMANT, HTTP-001 failing with the stray bytes as evidence`,
      async ({ expect, onTestFinished }) => {
        const front = await startTampering({ onTestFinished }, origin(), (answer) => answer, { extraResponse: extra });
        const args = ['--target', `${front.origin}/v1`, '--profile', 'standard', '--only', ids, '--seed', '5'];
        const run = await runCliInTest({ onTestFinished }, args, { timeoutMs: BOUND_MS, env: { API_KEY: KEY }, label: 'stray' });
        const why = `${run.report?.verdict.why}\n${run.stdout.slice(-2500)}`;
        expect(run.exitCode, why).toBe(1);
        expect(run.report?.verdict.overall, why).toBe('not-conformant');
        const http = run.report?.requirements.find((r) => r.id === 'HTTP-001');
        expect(http?.verdict, why).toBe('fail');
        expect(JSON.stringify(http), why).toMatch(mentions);
      },
      BOUND_MS + 30_000,
    );
  }
});

describe('a connection an answer said Connection: close ends there', () => {
  for (const closeButServe of ['every', 413] as const) {
    test(
      `says Connection: close on ${closeButServe === 'every' ? 'every answer' : 'a 413 to an oversized upload'} and goes on serving: NOT CONFORMANT, HTTP-001 failing`,
      async ({ expect, onTestFinished }) => {
        const front = await startTampering({ onTestFinished }, origin(), (answer) => answer, { closeButServe });
        const args = ['--target', `${front.origin}/v1`, '--profile', 'standard', '--only', 'HTTP-001', '--seed', '5'];
        const run = await runCliInTest({ onTestFinished }, args, { timeoutMs: BOUND_MS, env: { API_KEY: KEY }, label: 'close' });
        const why = `${run.report?.verdict.why}\n${run.stdout.slice(-2500)}`;
        expect(run.exitCode, why).toBe(1);
        const http = run.report?.requirements.find((r) => r.id === 'HTTP-001');
        expect(http?.verdict, why).toBe('fail');
        expect(JSON.stringify(http), why).toMatch(/said Connection: close: that connection ends there/);
      },
      BOUND_MS + 30_000,
    );
  }
});

describe('old connections', () => {
  test(
    'answers 500 on connections open longer than 4 s: NOT CONFORMANT with --hold-connection 6, CON-004 failing on the held connection',
    async ({ expect, onTestFinished }) => {
      const front = await startAgingFront({ onTestFinished }, origin(), 4_000);
      const args = ['--target', `${front.origin}/v1`, '--hold-connection', '6', ...only];
      const run = await runCliInTest({ onTestFinished }, args, { timeoutMs: BOUND_MS, env: { API_KEY: KEY }, label: 'aging' });
      const why = `${run.report?.verdict.why}\n${run.stdout.slice(-2500)}`;
      expect(run.exitCode, why).toBe(1);
      const con004 = run.report?.requirements.find((r) => r.id === 'CON-004');
      expect(con004?.verdict, why).toBe('fail');
      // The keep-alive list that first meets the aged connection fails (never a 5xx), or else the deciding
      // requests compared on it do: either way CON-004 fails on the held connection's 500.
      expect(JSON.stringify(con004), why).toMatch(/a valid listPets on the held connection|on a keep-alive connection open for \d+ s: 500/);
      expect(JSON.stringify(con004), why).toMatch(/\b500\b/);
    },
    BOUND_MS + 30_000,
  );
});
