import { afterAll, describe, test, vi } from 'vitest';
import type { TestContext } from 'vitest';
import { type HostileServer, closedPortOrigin, drip, startHttp, startResetting, streamHuge } from './support/hostile-servers.ts';
import { findLeaks } from './support/leaks.ts';
import { createLimiter } from './support/limiter.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * The CLI against targets that misbehave: every run must end in bounded time with exit 1 or 2, write a
 * conformance.json that says what happened, never write or print the API key, and never send the key
 * to another origin.
 */

const API_KEY = 'hostile-Key-7Q2xZ9vT4mW8pL3nR6sJ';
const CONCURRENCY = 2;
const MAX_RUN_MS = 120_000;
/** Just past the bound the run is killed, so a run that would never end still fails readably. */
const KILL_AFTER_MS = 130_000;

type Context = Pick<TestContext, 'onTestFinished'>;

interface HostileCase {
  name: string;
  /** The origin to test, and a second server that must never see the key. */
  start(context: Context): Promise<{ origin: string; bystander?: HostileServer }>;
  /** What conformance.json must mention, beyond a verdict of not-conformant or incomplete. */
  mentions?: RegExp;
  /** Instead of --profile quick. */
  profileArgs?: string[];
}

const json = (status: number, body: string, headers: Record<string, string | string[]> = {}) => ({ status, body, headers });

/** Answers 200 text/html, echoing the Authorization header it received (a debug page, a bad proxy). */
const echoAuthorization = (c: Context) =>
  startHttp(c, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><body><h1>Welcome</h1><p>you sent ${req.headers.authorization ?? 'nothing'}</p></body></html>`);
  });

/** Answers 200 with a JSON body echoing the Authorization header: it passes the preflight, then fails auth. */
const echoAuthorizationJson = (c: Context) =>
  startHttp(c, (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ youSent: req.headers.authorization ?? null }));
  });

const CASES: readonly HostileCase[] = [
  { name: 'hangs: accepts and never answers', start: async (c) => startHttp(c, () => undefined), mentions: /ERR_TARGET_TIMEOUT/ },
  { name: 'resets every connection', start: (c) => startResetting(c), mentions: /ERR_TARGET_UNREACHABLE/ },
  { name: 'answers text/html 200 to everything, echoing the Authorization header', start: echoAuthorization, mentions: /ERR_NOT_ANIMAL_STORE/ },
  {
    // The auth tests of the standard profile send the key in other forms (Basic, base64, a prefix, the query).
    name: 'echoes the Authorization header in JSON to the auth tests of the standard profile',
    start: echoAuthorizationJson,
    mentions: /AUTH-00[1-6]/,
    profileArgs: ['--profile', 'standard', '--only', 'auth'],
  },
  { name: 'sends a 50 MB body', start: (c) => startHttp(c, (_req, res) => streamHuge(res, 50 * 1024 * 1024)), mentions: /ERR_RESPONSE_TOO_LARGE|ERR_TARGET/ },
  { name: 'drips one byte a second', start: (c) => startHttp(c, (_req, res) => drip(res)), mentions: /ERR_TARGET_TIMEOUT/ },
  {
    name: 'sends malformed rate-limit headers',
    start: (c) => answering(c, () => json(200, '[]', { 'X-RateLimit-Limit': 'sixty', 'X-RateLimit-Remaining': '-1', 'X-RateLimit-Reset': 'tomorrow' })),
    mentions: /RATE-00[12]/,
  },
  {
    name: 'sends duplicated, contradicting rate-limit headers',
    start: (c) =>
      answering(c, () => {
        const reset = String(Math.floor(Date.now() / 1000) + 30);
        return json(200, '[]', { 'X-RateLimit-Limit': ['60', '1000'], 'X-RateLimit-Remaining': ['59', '0'], 'X-RateLimit-Reset': [reset, reset] });
      }),
    mentions: /RATE-00[123]/,
  },
  {
    name: 'redirects (302) every request to another origin',
    start: async (c) => {
      const bystander = await answering(c, () => json(200, '[]'));
      const target = await startHttp(c, (req, res) => {
        res.writeHead(302, { Location: `${bystander.origin}${req.url ?? '/'}` });
        res.end();
      });
      return { origin: target.origin, bystander };
    },
    mentions: /302/,
  },
  { name: 'a closed port (nothing listening)', start: async () => ({ origin: await closedPortOrigin() }), mentions: /ERR_TARGET_UNREACHABLE/ },
];

/** A server answering every request with the same made-up response. */
function answering(context: Context, reply: () => { status: number; body: string; headers: Record<string, string | string[]> }): Promise<HostileServer> {
  return startHttp(context, (_req, res) => {
    const { status, body, headers } = reply();
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(body);
  });
}

vi.setConfig({ maxConcurrency: CONCURRENCY });

describe('hostile targets: bounded, honest, and the key stays secret', () => {
  const limiter = createLimiter(CONCURRENCY);
  const rows: string[] = [];
  afterAll(() => console.log(['hostile target → exit, verdict, time, harness errors', ...rows].join('\n')));

  for (const hostile of CASES) {
    test.concurrent(
      hostile.name,
      async ({ expect, onTestFinished }) => {
        const { origin, bystander } = await hostile.start({ onTestFinished });
        const args = ['--target', `${origin}/v1`, '--api-key', API_KEY, ...(hostile.profileArgs ?? ['--profile', 'quick']), '--timeout', '2000'];
        const run = await limiter.run(() => runCliInTest({ onTestFinished }, args, { timeoutMs: KILL_AFTER_MS, label: 'hostile' }));
        const report = run.report;
        const codes = [...new Set(report?.harnessErrors.map((e) => e.code) ?? [])];
        const failing = report?.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id) ?? [];
        rows.push(
          `  ${hostile.name}: exit ${run.exitCode ?? `killed after ${run.killedAfterMs} ms`}, ${report?.verdict.label ?? 'no report'}, ${(run.durationMs / 1000).toFixed(1)} s, ${codes.join(' ') || '-'}, fails ${failing.join(',') || '-'}${bystander ? `, bystander saw ${bystander.seen.requests} requests` : ''}`,
        );
        const why = `${hostile.name}: exit ${run.exitCode}, ${report?.verdict.why ?? 'no report'} (${run.reportDir})\n${run.stdout.slice(-1500)}\n${run.stderr.slice(-1500)}`;

        expect(run.killedAfterMs, `the run was killed after ${KILL_AFTER_MS} ms\n${why}`).toBeUndefined();
        expect(run.durationMs, why).toBeLessThan(MAX_RUN_MS);
        expect([1, 2], why).toContain(run.exitCode);
        expect(report, `no conformance.json\n${why}`).toBeDefined();
        expect(['not-conformant', 'incomplete'], why).toContain(report?.verdict.overall);
        expect(codes.length + failing.length, `the report names neither a harness error nor a failure\n${why}`).toBeGreaterThan(0);
        if (hostile.mentions) expect(JSON.stringify(report), why).toMatch(hostile.mentions);
        expect(findLeaks(API_KEY, run), `the API key (or a near form of it) was written or printed (${run.reportDir})`).toEqual([]);
        if (bystander) {
          expect(
            bystander.seen.authorizations.filter((a) => a !== undefined),
            'Authorization sent to another origin',
          ).toEqual([]);
        }
      },
      KILL_AFTER_MS + 30_000,
    );
  }
});
