import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { embeddedWorkersOverride, fileSchedule } from '../src/cli/sequencer.ts';
import { REPO_ROOT, progress } from './lib/paths.ts';
import { waitForExit } from './lib/processes.ts';
import { fmt } from './lib/stats.ts';
import { inclusive, readProfile, summarize } from './profile/summarize-cpuprofile.ts';

/**
 * `tsx bench/profile.ts [--profile thorough] [--seed 7] [--out /tmp/bench-prof]`: where an embedded
 * run spends its time. Runs the conformance project with vitest directly (its global setup starts the
 * embedded reference), in the threads pool with the CLI's worker count (`--cpu-prof` writes one profile
 * per thread), with a timings reporter; then prints per-file vitest timings, CPU (from /usr/bin/time)
 * and, per thread, self time by package and inclusive time of the known suspects.
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
const TIME_BIN = '/usr/bin/time';

interface FileTiming {
  file: string;
  collectMs: number;
  testsMs: number;
  firstTestMs: number;
  tests: number;
  slowest: { name: string; ms: number }[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { profile: { type: 'string', default: 'thorough' }, seed: { type: 'string', default: '7' }, out: { type: 'string' } },
  });
  const out = values.out ?? join('/tmp', `bench-prof-${Date.now()}`);
  mkdirSync(out, { recursive: true });
  const timings = join(out, 'timings.json');
  const vitestArgs = [
    '--cpu-prof',
    `--cpu-prof-dir=${out}`,
    join('node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--project',
    'conformance',
    '--max-workers',
    String(fileSchedule({ embedded: true, referenceFaults: [] }, undefined, embeddedWorkersOverride(process.env.CONFORMANCE_EMBEDDED_WORKERS)).maxWorkers),
    '--reporter',
    './bench/profile/timings-reporter.ts',
  ];
  const useTime = existsSync(TIME_BIN);
  const [command, args] = useTime
    ? [TIME_BIN, ['-f', '%e %U %S', '-o', join(out, 'time.txt'), process.execPath, ...vitestArgs]]
    : [process.execPath, vitestArgs];
  progress(`profile: ${values.profile} seed ${values.seed} → ${out}`);
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, PROFILE: values.profile, SEED: values.seed, BENCH_TIMINGS_OUT: timings },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const code = await waitForExit(child, 15 * 60_000);
  const wallMs = performance.now() - started;
  const lines = [`exit ${code}, wall ${fmt(wallMs / 1000, 1)} s`];
  if (useTime && existsSync(join(out, 'time.txt'))) {
    const [, user, sys] = readFileSync(join(out, 'time.txt'), 'utf8').trim().split(/\s+/).slice(-3);
    lines.push(`CPU user ${user} s + sys ${sys} s (all processes)`);
  }
  if (existsSync(timings)) lines.push('', ...fileTable(JSON.parse(readFileSync(timings, 'utf8')) as { marks: Record<string, number>; files: FileTiming[] }));
  for (const file of readdirSync(out).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = readProfile(join(out, file));
    lines.push('', `== ${file}`, summarize(profile, 12), 'inclusive (suspects):');
    for (const [name, ms] of inclusive(profile, SUSPECTS).slice(0, 12)) lines.push(`  ${fmt(ms).padStart(7)} ms  ${name}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function fileTable(data: { marks: Record<string, number>; files: FileTiming[] }): string[] {
  const { marks, files } = data;
  const rows = [
    `vitest: reporter up at ${fmt(marks.reporterCreated ?? 0)} ms, run ${fmt((marks.runEnd ?? 0) - (marks.runStart ?? 0))} ms`,
    '| file | collect ms | tests ms | first test ms (incl. file fixture) | tests | slowest |',
    '|---|---|---|---|---|---|',
  ];
  let first = 0;
  let total = 0;
  for (const f of [...files].sort((a, b) => b.testsMs - a.testsMs)) {
    first += f.firstTestMs;
    total += f.testsMs;
    const slowest = f.slowest.map((s) => `${s.name.split(' ')[0]} ${fmt(s.ms)}`).join(', ');
    rows.push(`| ${f.file} | ${fmt(f.collectMs)} | ${fmt(f.testsMs)} | ${fmt(f.firstTestMs)} | ${f.tests} | ${slowest} |`);
  }
  rows.push(`| total | | ${fmt(total)} | ${fmt(first)} | | |`);
  return rows;
}

await main();
