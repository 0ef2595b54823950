import { type IncomingMessage, type ServerResponse, request as httpRequest } from 'node:http';
import { describe, test, vi } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { drip, startHttp } from './support/hostile-servers.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * Targets that degrade one path at a time, as real ones do: the run still ends within a bound stated
 * here, exits as the verdict model says, writes every report, and names the cause in one line. Each
 * target is a proxy in front of a correct reference server that spoils one thing. The tests run two at a
 * time (much of each is waiting out a hang or a drip), each with a reference server of its own.
 */

const KEY = 'degraded-target-key-0123456789abcdef';
const BOUND_MS = 90_000;
const CONCURRENCY = 2;

vi.setConfig({ maxConcurrency: CONCURRENCY });

type Spoiler = (req: IncomingMessage, res: ServerResponse, pass: () => void) => void;

/** A proxy to a reference of its own that lets `spoil` answer instead (or call pass() to forward). */
async function degraded(context: Parameters<typeof startHttp>[0], spoil: Spoiler): Promise<string> {
  const upstream = await startReferenceServer({ keys: [{ key: KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }], log: () => undefined });
  context.onTestFinished(() => upstream.close());
  const server = await startHttp(context, (req, res) => {
    // The body is read at once (the request is already flowing); pass() forwards it when complete.
    const body: Buffer[] = [];
    const ended = new Promise<void>((resolve) => {
      req.on('data', (chunk: Buffer) => body.push(chunk));
      req.on('end', resolve);
      if (req.readableEnded) resolve();
    });
    const pass = () => {
      void ended.then(() => {
        // A target in absolute-form (STA-017) is forwarded by its path, as proxies do; one no URL parser
        // reads (http://[/v1/pets) goes on as it came, for the target to answer.
        const target = absoluteFormPath(req.url ?? '/');
        const forward = httpRequest(upstream.url.replace(/\/v1$/, ''), { path: target, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => res.destroy());
        forward.end(Buffer.concat(body));
      });
    };
    spoil(req, res, pass);
  });
  return `${server.origin}/v1`;
}

function absoluteFormPath(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return target;
  }
}

const isGetPet = (req: IncomingMessage) => req.method === 'GET' && /^\/v1\/pets\/[^/?]+/.test(req.url ?? '');

describe.concurrent('degraded targets: the run ends, with the cause named', () => {
  test(
    'every getPet hangs, the rest is fine: NOT CONFORMANT in bounded time, getPet given up after 3 time-outs',
    async ({ expect, onTestFinished }) => {
      const target = await degraded({ onTestFinished }, (req, res, pass) => (isGetPet(req) ? undefined : pass()));
      const run = await runCliInTest({ onTestFinished }, ['--target', target, '--profile', 'standard', '--timeout', '1500', '--seed', '5'], {
        timeoutMs: BOUND_MS,
        env: { API_KEY: KEY },
        label: 'degraded-hang',
      });
      const why = run.stdout.slice(-2500);
      expect(run.killedAfterMs, why).toBeUndefined();
      expect(run.exitCode, why).toBe(1);
      expect(run.report?.verdict.overall).toBe('not-conformant');
      expect(run.stdout).toMatch(/no answer from getPet 3 times in a row/);
      // Only the time-outs that tripped the breaker were waited for, not one per getPet case.
      const timeouts = run.report?.requirements.flatMap((r) => r.tests).length ?? 0;
      expect(timeouts).toBeGreaterThan(0);
      expect(run.durationMs).toBeLessThan(BOUND_MS);
    },
    BOUND_MS + 30_000,
  );

  test(
    'one connection in ten dropped, the retry answered: never stopped by the breaker, the verdict of a clean target',
    async ({ expect, onTestFinished }) => {
      let served = 0;
      const target = await degraded({ onTestFinished }, (req, _res, pass) => {
        served += 1;
        // Every tenth request loses its connection before any answer; the next one (the retry) is answered.
        if (served % 10 === 0) return void req.socket.destroy();
        pass();
      });
      const run = await runCliInTest({ onTestFinished }, ['--target', target, '--profile', 'standard', '--timeout', '5000', '--seed', '9'], {
        timeoutMs: BOUND_MS,
        env: { API_KEY: KEY },
        label: 'degraded-drops',
      });
      const why = `${run.report?.verdict.why}\n${run.stdout.slice(-2500)}`;
      expect(run.killedAfterMs, why).toBeUndefined();
      expect(served, 'connections were dropped').toBeGreaterThan(100);
      expect(run.stdout).not.toMatch(/no answer from/);
      expect(run.report?.harnessErrors, why).toEqual([]);
      expect(
        run.report?.requirements.filter((r) => r.verdict === 'fail').map((r) => r.id),
        why,
      ).toEqual([]);
      // A standard run on a key too large to exhaust: everything else tested and passed, as on a clean target.
      expect(run.report?.verdict.overall, why).toBe('partial');
      expect(
        run.report?.verdict.scope.untested.filter((u) => u.code !== 'key-too-large' && u.code !== 'no-plan'),
        why,
      ).toEqual([]);
      expect(run.exitCode, why).toBe(0);
    },
    BOUND_MS + 30_000,
  );

  test(
    'a proxy that never answers a target in absolute-form: STA-017 warns, nothing else changes, the run is complete',
    async ({ expect, onTestFinished }) => {
      // The advisory's request gets no answer; an advisory never makes a run incomplete or failed.
      const target = await degraded({ onTestFinished }, (req, _res, pass) => (req.url?.startsWith('/') === false ? undefined : pass()));
      const run = await runCliInTest({ onTestFinished }, ['--target', target, '--profile', 'standard', '--timeout', '1500', '--seed', '7', '--strict'], {
        timeoutMs: BOUND_MS,
        env: { API_KEY: KEY },
        label: 'degraded-absolute-form',
      });
      const why = `${run.report?.verdict.why}\n${run.stdout.slice(-2500)}`;
      expect(run.killedAfterMs, why).toBeUndefined();
      expect(run.report?.harnessErrors, why).toEqual([]);
      expect(run.report?.requirements.find((r) => r.id === 'STA-017')?.verdict, why).toBe('warn');
      expect(run.stdout).toMatch(/--request-target/);
      expect(
        run.report?.requirements.filter((r) => r.verdict === 'fail' || (r.verdict === 'warn' && r.id !== 'STA-017')).map((r) => r.id),
        why,
      ).toEqual([]);
      expect(run.report?.verdict.overall, why).toBe('partial');
      expect(run.exitCode, why).toBe(0);
    },
    BOUND_MS + 30_000,
  );

  test(
    'createPet answers drip a byte a second: the whole-request deadline ends each, the breaker the rest',
    async ({ expect, onTestFinished }) => {
      const target = await degraded({ onTestFinished }, (req, res, pass) => (req.method === 'POST' ? drip(res) : pass()));
      const run = await runCliInTest({ onTestFinished }, ['--target', target, '--profile', 'standard', '--timeout', '1500', '--seed', '6'], {
        timeoutMs: BOUND_MS,
        env: { API_KEY: KEY },
        label: 'degraded-drip',
      });
      const why = run.stdout.slice(-2500);
      expect(run.killedAfterMs, why).toBeUndefined();
      expect(run.exitCode, why).toBe(1);
      expect(run.stdout).toMatch(/no answer from createPet 3 times in a row/);
    },
    BOUND_MS + 30_000,
  );

  test(
    '429 after 40 requests while X-RateLimit-Remaining says thousands are left: RATE-004 fails, the run ends',
    async ({ expect, onTestFinished }) => {
      let served = 0;
      const target = await degraded({ onTestFinished }, (req, res, pass) => {
        served += 1;
        if (served <= 40) return pass();
        const reset = Math.floor(Date.now() / 1000) + 60;
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': '1',
          'x-ratelimit-limit': '100000',
          'x-ratelimit-remaining': '99000',
          'x-ratelimit-reset': String(reset),
        });
        res.end(JSON.stringify({ code: 'rate_limited', message: 'slow down', status: 429 }));
      });
      const run = await runCliInTest({ onTestFinished }, ['--target', target, '--profile', 'thorough', '--seed', '7'], {
        timeoutMs: BOUND_MS,
        env: { API_KEY: KEY },
        label: 'degraded-429',
      });
      const why = run.stdout.slice(-2500);
      expect(run.killedAfterMs, why).toBeUndefined();
      expect(run.exitCode, why).toBe(1);
      expect(run.report?.requirements.find((r) => r.id === 'RATE-004')?.verdict, why).toBe('fail');
      expect(run.stdout).toMatch(/429 3 times while its X-RateLimit-Remaining said requests were left/);
    },
    BOUND_MS + 30_000,
  );

  test(
    '--max-duration reached mid-run on a slow target: INCOMPLETE with ERR_DEADLINE, every report written',
    async ({ expect, onTestFinished }) => {
      const target = await degraded({ onTestFinished }, (_req, _res, pass) => void setTimeout(pass, 150));
      const run = await runCliInTest({ onTestFinished }, ['--target', target, '--profile', 'standard', '--max-duration', '6', '--seed', '8'], {
        timeoutMs: BOUND_MS,
        env: { API_KEY: KEY },
        label: 'degraded-deadline',
      });
      const why = run.stdout.slice(-2500);
      expect(run.killedAfterMs, why).toBeUndefined();
      expect(run.exitCode, why).toBe(2);
      expect(run.report?.verdict.overall).toBe('incomplete');
      expect(
        run.report?.harnessErrors.map((p) => p.code),
        why,
      ).toContain('ERR_DEADLINE');
      expect(run.stdout).toContain('--max-duration');
      expect(run.report?.run.command).toContain('--max-duration 6');
      expect(run.durationMs, why).toBeLessThan(30_000);
    },
    BOUND_MS + 30_000,
  );
});
