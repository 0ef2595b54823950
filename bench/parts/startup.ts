import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Row } from './common.ts';
import { runCli } from '../lib/processes.ts';
import { DIST_BIN, REPO_ROOT, progress } from '../lib/paths.ts';
import { fmt, median, seconds } from '../lib/stats.ts';

const TIME_BIN = '/usr/bin/time';

/** Compiles dist/ as `npm pack` would (prepack), so the installed package's executable is measured as shipped. */
export function buildDist(): void {
  progress('startup: npm run build (dist/, as prepack makes it)');
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed: ${result.stdout}${result.stderr}`);
}

/**
 * Start-up: `--help` from a clone (its launcher: the staleness check of dist/, then dist/) and from the compiled package (dist/bin/cli.js, what `npx animal-store-conformance` runs
 * once installed). Interleaved, so both see the same load; medians of `runs`.
 */
export async function benchStartup(runs: number): Promise<Row[]> {
  buildDist();
  const clone: number[] = [];
  const compiled: number[] = [];
  const cloneCpu: number[] = [];
  const compiledCpu: number[] = [];
  for (let i = 1; i <= runs; i += 1) {
    const a = await runCli(['--help'], { bare: true, timeoutMs: 60_000 });
    const b = await runCli(['--help'], { bare: true, timeoutMs: 60_000, bin: DIST_BIN });
    if (a.exitCode !== 0 || b.exitCode !== 0) throw new Error(`--help exited ${a.exitCode} / ${b.exitCode}: ${a.tail}${b.tail}`);
    clone.push(a.wallMs);
    compiled.push(b.wallMs);
    if (a.cpuS !== undefined) cloneCpu.push(a.cpuS);
    if (b.cpuS !== undefined) compiledCpu.push(b.cpuS);
    progress(`startup: run ${i}/${runs}: clone ${seconds(a.wallMs)}, compiled ${seconds(b.wallMs)}`);
  }
  const cpu = (values: number[]) => (values.length ? `; CPU median ${seconds(median(values) * 1000)}` : '');
  return [
    ...versionAgainstBareNode(runs),
    {
      measure: 'start-up `--help` from a clone (src/bin/animal-store-conformance.js: dist/ checked against src/, then run)',
      value: seconds(median(clone)),
      notes: `median of ${runs}: ${clone.map((w) => seconds(w)).join(', ')}${cpu(cloneCpu)}`,
    },
    {
      measure: 'start-up `--help`, compiled dist/bin/cli.js (the installed package)',
      value: seconds(median(compiled)),
      notes: `median of ${runs}, interleaved with the row above: ${compiled.map((w) => seconds(w)).join(', ')}${cpu(compiledCpu)}`,
    },
  ];
}

/**
 * `--version` of the installed package against `node -e 0`, in CPU seconds (wall time on a shared machine
 * says more about the neighbours): the version needs nothing but the package's own name and number.
 */
function versionAgainstBareNode(runs: number): Row[] {
  if (!existsSync(TIME_BIN)) return [{ measure: '`--version` CPU vs `node -e 0`', value: 'n/a', notes: `${TIME_BIN} is not installed` }];
  const version: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    version.push(cpuSeconds([DIST_BIN, '--version']));
    bare.push(cpuSeconds(['-e', '0']));
  }
  const ratio = median(version) / median(bare);
  return [
    {
      measure: '`--version` CPU, compiled dist/bin/cli.js vs bare `node -e 0`',
      value: `${fmt(ratio, 1)}×`,
      notes: `medians of ${runs}, interleaved: ${fmt(median(version), 2)} s vs ${fmt(median(bare), 2)} s user + system`,
    },
  ];
}

/** User + system CPU seconds of one node process, as /usr/bin/time reports it. */
function cpuSeconds(args: readonly string[]): number {
  const result = spawnSync(TIME_BIN, ['-f', '%U %S', process.execPath, ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const [user = Number.NaN, system = Number.NaN] = result.stderr.trim().split('\n').at(-1)?.split(' ').map(Number) ?? [];
  return user + system;
}
