import type { Row } from './common.ts';
import { runCli, startStandaloneReference } from '../lib/processes.ts';
import { progress } from '../lib/paths.ts';
import { seconds } from '../lib/stats.ts';

const CEILINGS: Readonly<Record<string, number>> = { quick: 75, standard: 600 };

/** Requests each profile sends to a remote target (a standalone reference with a huge enterprise key). */
export async function benchProfiles(profiles: readonly string[] = ['quick', 'standard']): Promise<Row[]> {
  const server = await startStandaloneReference('bench-key:enterprise:1000000:100000000');
  const rows: Row[] = [];
  try {
    for (const profile of profiles) {
      progress(`profiles: --profile ${profile} against ${server.url}`);
      const run = await runCli(['--target', server.url, '--api-key', 'bench-key', '--profile', profile], { timeoutMs: 15 * 60_000 });
      const count = run.report?.traffic.requestCount;
      const ceiling = CEILINGS[profile];
      const over = count !== undefined && ceiling !== undefined && count > ceiling;
      rows.push({
        measure: `remote --profile ${profile}: requests`,
        value: count === undefined ? 'no report' : `${count}${over ? ` — FLAG: over ${ceiling}` : ` (≤ ${ceiling})`}`,
        notes: `${seconds(run.wallMs)}, exit ${run.exitCode}, ${run.report?.verdict.label ?? run.tail}, 429 retries ${run.report?.traffic.retries ?? '?'}`,
      });
    }
  } finally {
    await server.stop();
  }
  return rows;
}
