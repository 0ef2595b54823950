import { expect, test } from 'vitest';
import type { TestContext } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { startHttp } from './support/hostile-servers.ts';
import { findLeaks } from './support/leaks.ts';
import { startCliInTest } from './support/run-cli.ts';

/**
 * Ctrl-C or a CI job's SIGTERM ends a run early, and the run still writes its reports: the tests that
 * finished, and ERR_ABORTED saying it was interrupted. It also stops waiting: a wait for a rate-limit
 * window (up to a minute on a real key) ends with the signal.
 */

const API_KEY = 'interrupt-Key-3fP8qL2wX7mZ5nB9';
/** After the signal, the run has this long to write its reports and exit (it needs a second or two). */
const EXIT_WITHIN_MS = 20_000;
const KILL_AFTER_MS = 90_000;

interface Target {
  url: string;
  /** True once the run is inside its tests (or its waits), not starting up. */
  started(): boolean;
}

/** A conformant target, slowed down: the reference with a delay before every answer. */
async function slowReference(context: Pick<TestContext, 'onTestFinished'>): Promise<Target> {
  const server = await startReferenceServer({
    keys: [{ key: API_KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000 }],
    delayMs: 200,
    log: () => undefined,
  });
  context.onTestFinished(() => server.close());
  return { url: server.url, started: () => server.pets > 0 };
}

/** Answers 200 with an empty list and a window spent until 50 s from now: a pacing client waits. */
async function spentWindow(context: Pick<TestContext, 'onTestFinished'>): Promise<Target> {
  const target = await startHttp(context, (_req, res) => {
    const reset = String(Math.ceil(Date.now() / 1000) + 50);
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset });
    res.end('[]');
  });
  return { url: `${target.origin}/v1`, started: () => target.seen.requests >= 2 };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the run never reached the point to interrupt it');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const CASES = [
  { name: 'SIGINT while a slow, conformant target answers', signal: 'SIGINT', start: slowReference },
  { name: 'SIGTERM while the client waits out a rate-limit window', signal: 'SIGTERM', start: spentWindow },
] as const;

for (const c of CASES) {
  test(
    `${c.name}: the run ends soon, exit 2, and the reports say it was interrupted`,
    async (context) => {
      const target = await c.start(context);
      const run = startCliInTest(context, ['--target', target.url, '--api-key', API_KEY, '--profile', 'standard'], {
        timeoutMs: KILL_AFTER_MS,
        label: 'interrupt',
      });
      await until(target.started, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const signalledAt = performance.now();
      run.signal(c.signal);
      const result = await run.done;
      const afterSignalMs = performance.now() - signalledAt;

      expect(result.killedAfterMs, 'the run ended by itself').toBeUndefined();
      expect(afterSignalMs).toBeLessThan(EXIT_WITHIN_MS);
      expect(result.exitCode, `exit code; stdout: ${result.stdout}\nstderr: ${result.stderr.slice(-2000)}`).toBe(2);
      expect(result.stdout).toContain(`${c.signal}: stopping the run`);
      const report = result.report;
      expect(report, 'conformance.json was written').toBeDefined();
      expect(report?.verdict.exitCode).toBe(2);
      expect(report?.harnessErrors.map((e) => e.code)).toContain('ERR_ABORTED');
      expect(findLeaks(API_KEY, result)).toEqual([]);
    },
    KILL_AFTER_MS + 10_000,
  );
}
