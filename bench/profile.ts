import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DIST_BIN, REPO_ROOT, progress } from './lib/paths.ts';
import { waitForExit } from './lib/processes.ts';
import { fmt } from './lib/stats.ts';
import { fileSpans, spanRows } from './profile/file-spans.ts';
import { inclusive, readProfile, summarize } from './profile/summarize-cpuprofile.ts';
import { threadRows, watchThreads } from './profile/thread-cpu.ts';

/**
 * `tsx bench/profile.ts [--profile thorough] [--seed 7] [--out /tmp/bench-prof]`: where an embedded run
 * spends its time. Runs the compiled CLI as a user does (`node dist/bin/cli.js`: its schedule, its
 * workers, its V8 settings) under `--cpu-prof`, which writes one profile per JavaScript thread, and
 * prints:
 * - the CPU of every thread of the process as the kernel counts it (Linux): the JavaScript threads and
 *   those no profile shows, V8's background compiler and garbage collector;
 * - each suite file's span in the run, from its exchange log: which file slept while which computed;
 * - per JavaScript thread, self time by package and the inclusive time of known suspects (on a loaded
 *   machine a thread's waiting time is charged to what it was running: use those for relative weights).
 */
const SUSPECTS = [
  'createContract',
  'loadCatalog',
  'startReferenceServer',
  'attempt',
  'exchangeOnce',
  'take',
  'parseBody',
  'runChecks',
  'recordExchange',
  'deliver',
  'handle',
  'createVitest',
  'collectTests',
];

/** Threads the process had by then (ms after launch) are its own; vitest starts its workers later. */
const OWN_THREADS_MS = 150;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { profile: { type: 'string', default: 'thorough' }, seed: { type: 'string', default: '7' }, out: { type: 'string' } },
  });
  const out = values.out ?? join('/tmp', `bench-prof-${Date.now()}`);
  const reportDir = join(out, 'report');
  mkdirSync(out, { recursive: true });
  if (!existsSync(DIST_BIN)) throw new Error(`${DIST_BIN} is missing: run npm run build first`);
  const args = ['--cpu-prof', `--cpu-prof-dir=${out}`, DIST_BIN, '--profile', values.profile, '--seed', values.seed, '--report-dir', reportDir, '--quiet'];
  progress(`profile: ${values.profile} seed ${values.seed} → ${out}`);
  const launchedAt = Date.now();
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const threads = watchThreads(child.pid ?? -1);
  const code = await waitForExit(child, 15 * 60_000);
  const wallMs = performance.now() - started;
  const seen = threads.stop();
  const lines = [`exit ${code}, wall ${fmt(wallMs / 1000, 2)} s`];
  if (threads.available) lines.push('', ...threadRows(child.pid ?? -1, seen, OWN_THREADS_MS));
  const har = join(reportDir, 'exchanges.har');
  if (existsSync(har)) lines.push('', ...spanRows(fileSpans(har, launchedAt), wallMs));
  for (const file of readdirSync(out).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = readProfile(join(out, file));
    lines.push('', `== ${file}`, summarize(profile, 12), 'inclusive (suspects):');
    for (const [name, ms] of inclusive(profile, SUSPECTS).slice(0, 12)) lines.push(`  ${fmt(ms).padStart(7)} ms  ${name}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
