import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';
import type { TestContext } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { startHttp } from './support/hostile-servers.ts';
import { findLeaks } from './support/leaks.ts';
import { runCliInTest, startCliInTest } from './support/run-cli.ts';

/**
 * Ctrl-C or a CI job's SIGTERM ends a run early, and the run still writes its reports: the tests that
 * finished, and ERR_ABORTED saying it was interrupted. It also stops waiting: a wait for a rate-limit
 * window (up to a minute on a real key) ends with the signal. The three tests run at once: each has a
 * target of its own, and each spends most of its time waiting on a slow target or a spent window.
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

/** Waits for `condition`; a run that never gets there fails with what it printed (`printed`), if known. */
async function until(condition: () => boolean, timeoutMs: number, printed: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`the run never reached the point to interrupt it\n${printed().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const CASES = [
  { name: 'SIGINT while a slow, conformant target answers', signal: 'SIGINT', start: slowReference },
  { name: 'SIGTERM while the client waits out a rate-limit window', signal: 'SIGTERM', start: spentWindow },
] as const;

for (const c of CASES) {
  test.concurrent(
    `${c.name}: the run ends soon, exit 2, and the reports say it was interrupted`,
    async (context) => {
      const { expect } = context;
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

/** Copies every shard's blob/ files (the blob and its record) into one directory, as a CI job would. */
function collectBlobs(dirs: readonly string[]): string {
  const blobs = mkdtempSync(join(tmpdir(), 'verdicts-interrupt-blobs-'));
  for (const dir of dirs) for (const name of readdirSync(join(dir, 'blob'))) copyFileSync(join(dir, 'blob', name), join(blobs, name));
  return blobs;
}

test.concurrent(
  'a shard stopped with SIGINT, merged with a complete one: INCOMPLETE, exit 2, the shard problem named, not-run tests coded so and no requirement passed by half',
  async (context) => {
    const { expect } = context;
    const target = await slowReference(context);
    const args = ['--target', target.url, '--api-key', API_KEY, '--profile', 'standard', '--seed', '77'];
    const interrupted = startCliInTest(context, [...args, '--shard', '1/2'], { timeoutMs: KILL_AFTER_MS, label: 'interrupt-shard' });
    const complete = startCliInTest(context, [...args, '--shard', '2/2'], { timeoutMs: 4 * KILL_AFTER_MS, label: 'complete-shard' });
    await until(target.started, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    interrupted.signal('SIGINT');
    const [first, second] = await Promise.all([interrupted.done, complete.done]);
    expect(first.exitCode, first.stdout.slice(-1500)).toBe(2);
    expect(second.exitCode, second.stdout.slice(-1500)).toBe(0);

    const blobs = collectBlobs([first.reportDir, second.reportDir]);
    context.onTestFinished(() => rmSync(blobs, { recursive: true, force: true }));
    const merged = await runCliInTest(context, ['--merge-reports', blobs], { timeoutMs: KILL_AFTER_MS, label: 'interrupt-merge' });
    const report = merged.report;
    const why = `${report?.verdict.why}\n${merged.stdout.slice(-1500)}`;
    expect(merged.exitCode, why).toBe(2);
    expect(report?.verdict.overall, why).toBe('incomplete');
    expect(report?.harnessErrors.find((p) => p.code === 'ERR_ABORTED')?.message, why).toMatch(/^shard 1\/2: /);

    const requirements = report?.requirements ?? [];
    // Not a suite bug: every requirement the stopped shard held says the run stopped.
    expect(requirements.filter((r) => r.untestedCode === 'no-test').map((r) => r.id)).toEqual([]);
    const notRun = requirements.flatMap((r) => r.tests.filter((t) => t.notRun).map((t) => ({ r, t })));
    expect(notRun.length, 'the stopped shard left tests not run').toBeGreaterThan(0);
    for (const { r, t } of notRun) {
      expect({ id: r.id, test: t.name, skipCode: t.skipCode, state: t.state }).toEqual({ id: r.id, test: t.name, skipCode: undefined, state: 'skipped' });
      expect({ id: r.id, verdict: r.verdict, code: r.untestedCode }).toMatchObject({ id: r.id, code: 'run-problem' });
    }
    // A pass is every test of the requirement run and passed: never one of two.
    for (const r of requirements.filter((x) => x.verdict === 'pass')) {
      expect({ id: r.id, states: r.tests.map((t) => (t.notRun ? 'not-run' : t.state)) }).toEqual({ id: r.id, states: r.tests.map(() => 'passed') });
    }
    // JUnit and HTML say what the JSON says: a requirement with a test not run is no passing test case.
    const junit = readFileSync(join(merged.reportDir, 'junit.xml'), 'utf8');
    const html = readFileSync(join(merged.reportDir, 'conformance.html'), 'utf8');
    for (const r of new Set(notRun.map(({ r }) => r))) {
      const testcase = junit.slice(junit.indexOf(`name="${r.id} `), junit.indexOf('</testcase>', junit.indexOf(`name="${r.id} `)));
      expect(testcase, r.id).toMatch(/<skipped message="(untested|partly tested)/);
      expect(html).toContain(`data-verdict="${r.verdict}" data-id="${r.id}"`);
      expect(['skipped', 'partial']).toContain(r.verdict);
    }
  },
  6 * KILL_AFTER_MS,
);

// ---- Through npm: `npm run conformance` and `npx animal-store-conformance`, as a user starts them. ----

interface Launched {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  reportDir: string;
  /** True while any process of the run's group (npm, its shell, the CLI, vitest's workers) is left. */
  groupAlive(): boolean;
}

/** Starts the run through npm in a process group of its own, as a terminal does; `signal` is sent once the target sees traffic. */
async function throughNpm(
  context: Pick<TestContext, 'onTestFinished'>,
  launcher: readonly string[],
  target: Target,
  send: (launcherPid: number) => void,
): Promise<Launched> {
  const reportDir = mkdtempSync(join(tmpdir(), 'verdicts-npm-signal-'));
  const env: NodeJS.ProcessEnv = { ...process.env, API_KEY, FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'TEST' || name === 'NODE_ENV' || name.startsWith('ASC_')) delete env[name];
  const [command, ...args] = launcher;
  const child = spawn(command as string, [...args, '--target', target.url, '--profile', 'standard', '--report-dir', reportDir], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = child.pid as number;
  const groupAlive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  context.onTestFinished(() => {
    if (groupAlive()) process.kill(-pgid, 'SIGKILL');
    rmSync(reportDir, { recursive: true, force: true });
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  await until(target.started, 60_000, () => output);
  await new Promise((resolve) => setTimeout(resolve, 500));
  send(pgid);
  const { code, signal } = await exited;
  return { code, signal, output, reportDir, groupAlive };
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NPM_RUN = ['npm', 'run', '--silent', 'conformance', '--'];
const NPX = ['npx', '--no', '--', 'animal-store-conformance'];

for (const [name, send] of [
  ['Ctrl-C (SIGINT to the process group)', (pgid: number) => process.kill(-pgid, 'SIGINT')],
  ['SIGTERM to npm alone', (pgid: number) => process.kill(pgid, 'SIGTERM')],
] as const) {
  test.concurrent(
    `npm run conformance, ${name}: exit 2, the reports and the HAR written, nothing left running`,
    async (context) => {
      const { expect } = context;
      const run = await throughNpm(context, NPM_RUN, await slowReference(context), send);
      expect(run.code, run.output.slice(-3000)).toBe(2);
      expect(existsSync(join(run.reportDir, 'exchanges.har')), 'the HAR').toBe(true);
      const report = JSON.parse(readFileSync(join(run.reportDir, 'conformance.json'), 'utf8')) as ConformanceReport;
      expect(report.harnessErrors.map((e) => e.code)).toContain('ERR_ABORTED');
      await untilGone(run);
    },
    KILL_AFTER_MS + 10_000,
  );

  test.concurrent(
    `npx, ${name}: the run stops by itself and writes the reports and the HAR; nothing is left running`,
    async (context) => {
      const { expect } = context;
      const run = await throughNpm(context, NPX, await slowReference(context), send);
      // npx reports its own end (npm dies of the signal: 130 or 143, the shell it started cannot be
      // told apart); what the run decides is in the reports, written by a run that did not go on orphaned.
      await untilGone(run);
      expect(existsSync(join(run.reportDir, 'exchanges.har')), `the HAR\n${run.output.slice(-3000)}`).toBe(true);
      const report = JSON.parse(readFileSync(join(run.reportDir, 'conformance.json'), 'utf8')) as ConformanceReport;
      expect(report.verdict.exitCode).toBe(2);
      expect(report.harnessErrors.map((e) => e.code)).toContain('ERR_ABORTED');
    },
    KILL_AFTER_MS + 10_000,
  );
}

/** Every process of the run ends within EXIT_WITHIN_MS of the launcher's exit: none runs on orphaned. */
async function untilGone(run: Launched): Promise<void> {
  const deadline = performance.now() + EXIT_WITHIN_MS;
  while (run.groupAlive()) {
    if (performance.now() > deadline) throw new Error(`the run went on after npm ended\n${run.output.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
