import { main } from '../../src/cli/main.ts';
import { environmentNames } from '../../src/config/setting-layers.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
/** The package's bin, as `npm run conformance` and `npx animal-store-conformance` start it. */
const BIN = join(ROOT, 'src', 'bin', 'animal-store-conformance.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the CLI as a user would (its bin), in a child process, with a clean environment of our choosing. */
export function runCli(args: readonly string[], env: Record<string, string> = {}, cwd: string = ROOT): Promise<CliResult> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
  return collect(child, started);
}

/** Variables the CLI reads besides its own options': a developer's shell must not change what a test sees. */
const OUTSIDE_ENV = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'GITHUB_STEP_SUMMARY', 'GITHUB_ACTIONS'];

/**
 * The CLI's main() in this process, for a command that never starts a run (usage errors, help): a child
 * process costs a second of CPU for the same lines. Stdout and stderr stay apart as the bin keeps them;
 * every variable the CLI reads is replaced by `env` for the call and put back after it.
 */
export async function runMain(args: readonly string[], env: Record<string, string> = {}): Promise<Omit<CliResult, 'ms'>> {
  const names = [...new Set([...environmentNames(), ...OUTSIDE_ENV, ...Object.keys(env)])];
  const saved = names.map((name) => [name, process.env[name]] as const);
  for (const name of names) delete process.env[name];
  Object.assign(process.env, env);
  const stdout: string[] = [];
  const stderr: string[] = [];
  try {
    const code = await main(
      args,
      (line) => stdout.push(`${line}\n`),
      (line) => stderr.push(`${line}\n`),
    );
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

function collect(child: ChildProcess, started: number): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started })));
}

/**
 * A standalone reference server (npm run reference) on a free port; stopped when the test ends. `rateWindow`
 * states a window shortened with `--window` to a run against it (--rate-window), empty for the minute.
 */
export async function startStandalone(keys: string, args: readonly string[] = []): Promise<{ url: string; child: ChildProcess; rateWindow: string[] }> {
  const child = spawn(TSX, [join(ROOT, 'src', 'bin', 'cli.ts'), 'reference', '--port', '0', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', REFERENCE_API_KEYS: keys },
  });
  onTestFinished(() => {
    child.kill('SIGTERM');
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(seen);
      if (match) resolve(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`reference exited ${code}: ${seen}`)));
  });
  const window = args[args.indexOf('--window') + 1];
  return { url, child, rateWindow: args.includes('--window') && window !== undefined ? ['--rate-window', window] : [] };
}

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function readReport(dir: string): ConformanceReport {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
}

/** Every file below dir, as text. */
export function allFiles(dir: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...allFiles(path));
    else out.push({ path, text: readFileSync(path, 'latin1') });
  }
  return out;
}

export function verdictsById(report: ReturnType<typeof readReport>): Record<string, string> {
  return Object.fromEntries(report.requirements.map((r) => [r.id, r.verdict]));
}
