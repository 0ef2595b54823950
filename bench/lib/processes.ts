import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { CLI_BIN, REPO_ROOT, TSX_BIN } from './paths.ts';

export interface CliRun {
  exitCode: number | null;
  wallMs: number;
  /** undefined when the CLI wrote no conformance.json (a crash). */
  report: ConformanceReport | undefined;
  /** The last lines the CLI printed, for diagnosis. */
  tail: string;
  /** User + system CPU seconds of the CLI and its children, when /usr/bin/time is there to tell. */
  cpuS: number | undefined;
  /** Epoch ms at which the process was started: launch, for launch → first request. */
  startedAtMs: number;
}

const TIME_BIN = '/usr/bin/time';

export interface CliRunOptions {
  env?: Record<string, string>;
  /** Hard ceiling; the CLI's process group is killed after it. Default 15 minutes. */
  timeoutMs?: number;
  /** Keep the report directory (its path is returned in the report's location). */
  keepReportDir?: string;
  nodeOptions?: string;
  /** Start it as a user does, with `npm run conformance` (npm's own start-up included); default: the bin. */
  viaNpm?: boolean;
  /** Another executable to start with node, e.g. the compiled dist/bin/cli.js; default the clone's bin. */
  bin?: string;
  /** Arguments as given, without the added --report-dir (e.g. --help). */
  bare?: boolean;
}

/** Runs the CLI's bin (or `npm run conformance`) with `<args> --report-dir <tmp>` as its own process group and reads conformance.json. */
export async function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  const reportDir = options.keepReportDir ?? mkdtempSync(join(tmpdir(), 'bench-cli-'));
  const timeFile = join(reportDir, 'bench-time.txt');
  const cliArgs = options.bare ? [...args] : [...args, '--report-dir', reportDir];
  const command = options.viaNpm ? ['npm', 'run', '--silent', 'conformance', '--', ...cliArgs] : [process.execPath, options.bin ?? CLI_BIN, ...cliArgs];
  const timed = existsSync(TIME_BIN) ? [TIME_BIN, '-f', '%U %S', '-o', timeFile, ...command] : command;
  const startedAtMs = Date.now();
  const started = performance.now();
  const child = spawn(timed[0] as string, timed.slice(1), {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env, ...(options.nodeOptions ? { NODE_OPTIONS: options.nodeOptions } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exitCode = await waitForExit(child, options.timeoutMs ?? 15 * 60_000);
  const wallMs = performance.now() - started;
  const report = readReport(join(reportDir, 'conformance.json'));
  const cpuS = readCpu(timeFile);
  if (!options.keepReportDir) rmSync(reportDir, { recursive: true, force: true });
  return { exitCode, wallMs, report, tail: output.join('').split('\n').slice(-12).join('\n'), cpuS, startedAtMs };
}

function readCpu(path: string): number | undefined {
  try {
    const [user, sys] = readFileSync(path, 'utf8').trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
    return user !== undefined && sys !== undefined && Number.isFinite(user + sys) ? user + sys : undefined;
  } catch {
    return undefined;
  }
}

function readReport(path: string): ConformanceReport | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
  } catch {
    return undefined;
  }
}

/** Waits for a detached child; past the deadline its whole process group gets SIGKILL. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export interface StandaloneReference {
  url: string;
  stop(): Promise<void>;
}

/** `tsx src/bin/cli.ts reference --port 0` with REFERENCE_API_KEYS; resolves once it prints its URL. */
export async function startStandaloneReference(apiKeys: string): Promise<StandaloneReference> {
  const child = spawn(TSX_BIN, ['src/bin/cli.ts', 'reference', '--port', '0'], {
    cwd: REPO_ROOT,
    env: { ...process.env, REFERENCE_API_KEYS: apiKeys },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`reference did not start: ${seen}`)), 30_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`reference exited (${code}): ${seen}`)));
  });
  return {
    url,
    async stop() {
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs tasks with at most `width` in flight; results keep the input order. */
export async function inParallel<T, R>(items: readonly T[], width: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}
