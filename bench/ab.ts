import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DIST_BIN, REPO_ROOT, progress } from './lib/paths.ts';
import { type CliRun, runCli } from './lib/processes.ts';
import { fmt, median } from './lib/stats.ts';
import { type RunPhases, phasesOf, trafficOf } from './parts/run-phases.ts';

/**
 * `npm run bench:ab -- --base <rev> [--runs 10] [--seed 7] [-- <more CLI arguments>]`: the embedded run of
 * this checkout against the same run of another commit, interleaved (base, this, base, this…) on one
 * machine, because its speed drifts by more than most changes between hours. Each side runs its own
 * compiled CLI (`node dist/bin/cli.js --seed <seed> …`): this checkout's dist/ is built first if stale, and
 * the base commit is checked out into a temporary git worktree that shares this checkout's node_modules
 * (refused when the two lockfiles differ: the comparison would measure the dependencies too) and built
 * there. One run of each side first fills the derived cache and is not counted. Prints a Markdown table of
 * each side's mean and median wall and CPU, its median launch → first request and last response → exit
 * (from each run's exchange log), every run's figures, and the exit codes and verdicts, which must agree.
 * The worktree is removed at the end.
 */
const { values, positionals } = parseArgs({
  options: {
    base: { type: 'string' },
    runs: { type: 'string', default: '10' },
    seed: { type: 'string', default: '7' },
  },
  allowPositionals: true,
});
if (!values.base) {
  console.error('bench:ab: --base <commit> is required (the commit to compare this checkout against)');
  process.exit(2);
}
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`bench:ab: --runs must be a whole number of at least 1; got "${values.runs}"`);
  process.exit(2);
}
const base = values.base;
const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
let baseCommit: string;
try {
  baseCommit = git('rev-parse', '--verify', '--quiet', `${base}^{commit}`);
} catch {
  console.error(`bench:ab: no commit "${base}" in this checkout (a shallow clone may not have it: git fetch --unshallow)`);
  process.exit(2);
}
if (git('diff', '--name-only', baseCommit, '--', 'package-lock.json') !== '') {
  console.error(`bench:ab: package-lock.json differs between ${base} and this checkout; install the base in a worktree of its own to compare them`);
  process.exit(2);
}

interface Side {
  label: string;
  bin: string;
  runs: CliRun[];
  phases: RunPhases[];
}

const dir = mkdtempSync(join(tmpdir(), 'bench-ab-'));
const worktree = join(dir, 'base');
try {
  progress(`bench:ab: building this checkout, and ${base} (${baseCommit.slice(0, 7)}) in ${worktree}`);
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'prepare.mjs')], { cwd: REPO_ROOT, stdio: 'inherit' });
  git('worktree', 'add', '--detach', '--quiet', worktree, baseCommit);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(worktree, 'node_modules'), 'dir');
  execFileSync(process.execPath, [join(worktree, 'scripts', 'prepare.mjs')], { cwd: worktree, stdio: 'inherit' });
  const sides: Side[] = [
    { label: baseCommit.slice(0, 7), bin: join(worktree, 'dist', 'bin', 'cli.js'), runs: [], phases: [] },
    {
      label: `this checkout (${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') === '' ? '' : ', with changes'})`,
      bin: DIST_BIN,
      runs: [],
      phases: [],
    },
  ];
  const args = ['--seed', values.seed, ...positionals];
  for (const side of sides) await runCli(args, { bin: side.bin });
  for (let round = 1; round <= runs; round += 1) {
    for (const side of sides) {
      const keep = mkdtempSync(join(dir, 'run-'));
      const run = await runCli(args, { bin: side.bin, keepReportDir: keep });
      side.runs.push(run);
      try {
        side.phases.push(phasesOf(run, trafficOf(keep), undefined));
      } catch {
        // No exchange log (a run that crashed): its exit code says so in the table.
      } finally {
        rmSync(keep, { recursive: true, force: true });
      }
      progress(
        `bench:ab: round ${round} ${side.label}: ${fmt(run.wallMs / 1000, 2)} s, CPU ${run.cpuS === undefined ? 'n/a' : `${fmt(run.cpuS, 2)} s`}, exit ${run.exitCode}`,
      );
    }
  }
  console.log(table(sides, args));
} finally {
  try {
    git('worktree', 'remove', '--force', worktree);
  } catch {
    // Not made (the build failed first): nothing to remove.
  }
  rmSync(dir, { recursive: true, force: true });
}

function table(sides: readonly Side[], args: readonly string[]): string {
  const seconds = (values: number[]) => `${fmt(values.reduce((a, b) => a + b, 0) / values.length, 2)} s (median ${fmt(median(values), 2)} s)`;
  const lines = [
    `Interleaved, ${runs} runs each of \`node dist/bin/cli.js ${args.join(' ')}\`:`,
    '',
    '| | wall, mean | CPU (user + system), mean | launch → first request, median | last response → exit, median | exit codes | verdicts |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const side of sides) {
    const cpu = side.runs.flatMap((r) => (r.cpuS === undefined ? [] : [r.cpuS]));
    const exits = [...new Set(side.runs.map((r) => String(r.exitCode)))].join(', ');
    const verdicts = [...new Set(side.runs.map((r) => r.report?.verdict.overall ?? 'no report'))].join(', ');
    lines.push(
      `| ${side.label} | ${seconds(side.runs.map((r) => r.wallMs / 1000))} | ${cpu.length ? seconds(cpu) : 'n/a (no /usr/bin/time)'} | ${phase(side, (p) => p.launchToFirstMs)} | ${phase(side, (p) => p.lastToExitMs)} | ${exits} | ${verdicts} |`,
    );
  }
  lines.push('', 'Every run, wall / CPU in seconds:', '');
  for (const side of sides)
    lines.push(`- ${side.label}: ${side.runs.map((r) => `${fmt(r.wallMs / 1000, 2)}/${r.cpuS === undefined ? '-' : fmt(r.cpuS, 2)}`).join(', ')}`);
  lines.push('', 'Every run, launch → first request / last response → exit in milliseconds:', '');
  for (const side of sides)
    lines.push(`- ${side.label}: ${side.phases.map((p) => `${Math.round(p.launchToFirstMs)}/${Math.round(p.lastToExitMs)}`).join(', ')}`);
  return lines.join('\n');
}

function phase(side: Side, of: (phases: RunPhases) => number): string {
  return side.phases.length ? `${Math.round(median(side.phases.map(of)))} ms` : 'n/a';
}
