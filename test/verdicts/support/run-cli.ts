import { type ChildProcess, spawn } from 'node:child_process';
import { environmentNames } from '../../../src/config/setting-layers.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';
import type { ConformanceReport } from '../../../src/report/report-types.ts';

/**
 * The installed package's bin, as `npx animal-store-conformance` starts it: the compiled dist/, kept up to
 * date by the project's global setup (compiled-package.ts). It spares each run the launcher's staleness
 * check of src/, which the verdict project, CLI runs side by side on two cores, can do without; the
 * clone's bin (which compiles a stale dist/ first) is what test/support/cli.ts runs.
 */
const BIN = fileURLToPath(new URL('../../../dist/bin/cli.js', import.meta.url));

export interface CliRun {
  /** Exit code, or undefined when the process was killed (see `killedAfterMs`). */
  exitCode: number | undefined;
  signal: NodeJS.Signals | undefined;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Set when the run outlived its time limit and was killed with its whole process group. */
  killedAfterMs: number | undefined;
  reportDir: string;
  /** conformance.json, when the run wrote one. */
  report: ConformanceReport | undefined;
}

export interface CliRunOptions {
  /** Kill the run (and every process it started) after this long. */
  timeoutMs: number;
  /** Extra environment; the base is the parent's minus the CLI's own variables (flags decide). */
  env?: Record<string, string>;
  /** Prefix of the temporary report directory. */
  label?: string;
  /** The target's per-minute window when a test started it shortened (a reference with rateWindowMs): stated to the run. */
  rateWindowMs?: number;
}

/** Environment variables the CLI reads: a developer's shell must not change what a verdict test sees. */
const CLI_ENV = [
  ...environmentNames(),
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'GITHUB_STEP_SUMMARY',
  'GITHUB_ACTIONS',
];

export interface CliHandle {
  reportDir: string;
  done: Promise<CliRun>;
  kill(): void;
  /** Sends a signal to the run's process group, as a terminal's Ctrl-C or a CI job's time-out does. */
  signal(signal: NodeJS.Signals): void;
}

/**
 * Runs `node dist/bin/cli.js <args> --report-dir <fresh tmp dir>` with that fresh directory as
 * its working directory (no developer's .env applies) and in its own process group (a time-out kills the
 * vitest workers it started too). Never rejects for a failing run: the caller asserts on the outcome.
 * The report directory is the caller's to remove (`removeReportDir`): a failing test keeps it.
 */
export function runCli(args: readonly string[], options: CliRunOptions): CliHandle {
  const reportDir = mkdtempSync(join(tmpdir(), `verdicts-${options.label ?? 'run'}-`));
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, FORCE_COLOR: '0', NO_COLOR: '1' };
  for (const name of CLI_ENV) if (!options.env?.[name]) delete env[name];
  // CON-004 holds a connection 45 s against a remote target by default: a verdict test that is not about
  // old connections holds it 2 s (a --hold-connection flag, or the variable given, wins).
  if (!options.env?.ASC_HOLD_CONNECTION) env.ASC_HOLD_CONNECTION = '2';
  // A shortened window is stated, or RATE-008 holds the target to a minute and rightly fails it.
  if (options.rateWindowMs !== undefined) env.ASC_RATE_WINDOW = String(options.rateWindowMs / 1000);
  // The unit project's own vitest variables must not leak into the child's vitest.
  for (const name of Object.keys(env)) if (name.startsWith('VITEST') || name === 'TEST' || name === 'NODE_ENV') delete env[name];
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args, '--report-dir', reportDir], {
    cwd: reportDir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
  let killedAfterMs: number | undefined;
  let closed = false;
  const timer = setTimeout(() => {
    killedAfterMs = Math.round(performance.now() - started);
    killGroup(child);
  }, options.timeoutMs);
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code, signal) => {
      closed = true;
      clearTimeout(timer);
      resolve({
        exitCode: code ?? undefined,
        signal: signal ?? undefined,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        durationMs: Math.round(performance.now() - started),
        killedAfterMs,
        reportDir,
        report: readReport(reportDir),
      });
    });
    child.on('error', () => undefined);
  });
  return {
    reportDir,
    done,
    signal: (signal) => {
      if (!closed && child.pid !== undefined) process.kill(-child.pid, signal);
    },
    kill: () => {
      clearTimeout(timer);
      // Once closed, the group id may belong to someone else's processes.
      if (!closed) killGroup(child);
    },
  };
}

export function removeReportDir(run: Pick<CliRun, 'reportDir'>): void {
  rmSync(run.reportDir, { recursive: true, force: true });
}

/**
 * runCli for the current test, its cleanup registered at once: the process group is killed if still
 * running, and the report directory removed unless the test failed (then it is kept for a look).
 */
export function runCliInTest(context: Pick<TestContext, 'onTestFinished'>, args: readonly string[], options: CliRunOptions): Promise<CliRun> {
  return startCliInTest(context, args, options).done;
}

/** runCliInTest, returning the handle: for tests that signal the run while it goes on. */
export function startCliInTest(context: Pick<TestContext, 'onTestFinished'>, args: readonly string[], options: CliRunOptions): CliHandle {
  const handle = runCli(args, options);
  context.onTestFinished(({ task }) => {
    handle.kill();
    if (task.result?.state !== 'fail') removeReportDir(handle);
  });
  return handle;
}

function readReport(dir: string): ConformanceReport | undefined {
  const path = join(dir, 'conformance.json');
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
  } catch {
    return undefined;
  }
}

/** Kills the child and the processes it started (its vitest workers): they share its process group. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    // Also when the child itself has exited: a worker it left behind may still hold its output open.
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: the whole group is gone already.
  }
}
