import { spawnSync } from 'node:child_process';
import type { Row } from './common.ts';
import { runCli } from '../lib/processes.ts';
import { DIST_BIN, REPO_ROOT, progress } from '../lib/paths.ts';
import { median, seconds } from '../lib/stats.ts';

/** Compiles dist/ as `npm pack` would (prepack), so the installed package's executable is measured as shipped. */
export function buildDist(): void {
  progress('startup: npm run build (dist/, as prepack makes it)');
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed: ${result.stdout}${result.stderr}`);
}

/**
 * Start-up: `--help` from a clone (the TypeScript sources through tsx, as every start was before the
 * build step) and from the compiled package (dist/bin/cli.js, what `npx animal-store-conformance` runs
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
    progress(`startup: run ${i}/${runs}: tsx ${seconds(a.wallMs)}, compiled ${seconds(b.wallMs)}`);
  }
  const cpu = (values: number[]) => (values.length ? `; CPU median ${seconds(median(values) * 1000)}` : '');
  return [
    {
      measure: 'start-up `--help`, before: TypeScript through tsx (the clone)',
      value: seconds(median(clone)),
      notes: `median of ${runs}: ${clone.map((w) => seconds(w)).join(', ')}${cpu(cloneCpu)}`,
    },
    {
      measure: 'start-up `--help`, after: compiled dist/bin/cli.js (the installed package)',
      value: seconds(median(compiled)),
      notes: `median of ${runs}, interleaved with the row above: ${compiled.map((w) => seconds(w)).join(', ')}${cpu(compiledCpu)}`,
    },
  ];
}
