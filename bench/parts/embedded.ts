import type { Row } from './common.ts';
import { type CliRun, runCli } from '../lib/processes.ts';
import { DIST_BIN, progress } from '../lib/paths.ts';
import { buildDist } from './startup.ts';
import { fmt, generatedCases, median, seconds } from '../lib/stats.ts';

/** Wall time of the whole CLI process on the embedded reference (default profile), `runs` times; medians. */
export async function benchEmbedded(runs: number): Promise<Row[]> {
  const walls: number[] = [];
  const requests: number[] = [];
  const cases: number[] = [];
  // The same run from the compiled package (what npx starts once installed), interleaved with the clone's.
  buildDist();
  const compiled: CliRun[] = [];
  const properties: number[] = [];
  const exits: string[] = [];
  const cpus: number[] = [];
  for (let i = 1; i <= runs; i += 1) {
    const run = await runCli([], { timeoutMs: 10 * 60_000, viaNpm: true });
    walls.push(run.wallMs);
    exits.push(String(run.exitCode));
    if (run.cpuS !== undefined) cpus.push(run.cpuS);
    if (run.report) {
      requests.push(run.report.traffic.requestCount);
      const generated = generatedCases(run.report);
      cases.push(generated.cases);
      properties.push(generated.properties);
    }
    progress(`embedded: run ${i}/${runs}: ${seconds(run.wallMs)}, exit ${run.exitCode}, ${requests.at(-1) ?? '?'} requests`);
    const built = await runCli([], { timeoutMs: 10 * 60_000, bin: DIST_BIN });
    compiled.push(built);
    progress(`embedded (compiled): run ${i}/${runs}: ${seconds(built.wallMs)}, exit ${built.exitCode}`);
  }
  const compiledCpus = compiled.flatMap((r) => (r.cpuS === undefined ? [] : [r.cpuS]));
  const caseNote = median(properties) > 0 ? 'sum of property numRuns + example tests' : 'no property data in the report: one per test';
  return [
    {
      measure: 'embedded `npm run conformance` wall time (profile thorough)',
      value: seconds(median(walls)),
      notes:
        `median of ${runs}: ${walls.map((w) => seconds(w)).join(', ')}; exit codes ${exits.join(',')}` +
        (cpus.length ? `; CPU user+sys median ${seconds(median(cpus) * 1000)} (wall is inflated on a loaded machine)` : ''),
    },
    {
      measure: 'embedded run from the compiled package (node dist/bin/cli.js, profile thorough)',
      value: seconds(median(compiled.map((r) => r.wallMs))),
      notes:
        `median of ${runs}, each right after a clone run above: ${compiled.map((r) => seconds(r.wallMs)).join(', ')}; exit codes ${compiled.map((r) => r.exitCode).join(',')}` +
        (compiledCpus.length ? `; CPU user+sys median ${seconds(median(compiledCpus) * 1000)}` : ''),
    },
    { measure: 'embedded run: generated cases', value: fmt(median(cases)), notes: caseNote },
    { measure: 'embedded run: requests (traffic.requestCount)', value: fmt(median(requests)), notes: `per run: ${requests.join(', ')}` },
  ];
}
