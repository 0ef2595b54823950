import type { Row } from './common.ts';
import { runCli } from '../lib/processes.ts';
import { progress } from '../lib/paths.ts';
import { fmt, generatedCases, median, seconds } from '../lib/stats.ts';

/** Wall time of the whole CLI process on the embedded reference (default profile), `runs` times; medians. */
export async function benchEmbedded(runs: number): Promise<Row[]> {
  const walls: number[] = [];
  const requests: number[] = [];
  const cases: number[] = [];
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
  }
  const caseNote = median(properties) > 0 ? 'sum of property numRuns + example tests' : 'no property data in the report: one per test';
  return [
    {
      measure: 'embedded `npm run conformance` wall time (profile thorough)',
      value: seconds(median(walls)),
      notes:
        `median of ${runs}: ${walls.map((w) => seconds(w)).join(', ')}; exit codes ${exits.join(',')}` +
        (cpus.length ? `; CPU user+sys median ${seconds(median(cpus) * 1000)} (wall is inflated on a loaded machine)` : ''),
    },
    { measure: 'embedded run: generated cases', value: fmt(median(cases)), notes: caseNote },
    { measure: 'embedded run: requests (traffic.requestCount)', value: fmt(median(requests)), notes: `per run: ${requests.join(', ')}` },
  ];
}
