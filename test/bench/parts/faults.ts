import type { Row } from './common.ts';
import { FAULTS, INDEPENDENT_FAULTS } from '../../../src/reference/index.ts';
import { inParallel, runCli } from '../lib/processes.ts';
import { progress } from '../lib/paths.ts';

interface FaultOutcome {
  name: string;
  strictOnly: boolean;
  exitCode: number | null;
  requests: number | undefined;
}

export type FaultProfile = 'quick' | 'standard' | 'thorough';

/**
 * The fault sets: the suite's own (FAULTS) and the independent one, written from the interface alone
 * by someone who had not read the suites (src/reference/independent-faults). They are counted apart:
 * the second says how the suite does on faults it was never tuned against.
 */
export const FAULT_SETS = {
  existing: { label: 'faults', faults: FAULTS },
  independent: { label: 'independent faults', faults: INDEPENDENT_FAULTS },
} as const;
export type FaultSet = keyof typeof FAULT_SETS;

interface NamedFault {
  readonly name: string;
  readonly strictOnly?: boolean;
}

/**
 * How many named faults each profile catches (exit 1) on the embedded reference, and the requests
 * a run sends. Faults that break only SHOULD requirements (strictOnly) are run with --strict, where they count.
 */
export async function benchFaults(
  width = 2,
  profiles: readonly FaultProfile[] = ['quick', 'standard'],
  sets: readonly FaultSet[] = ['existing', 'independent'],
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const set of sets) for (const profile of profiles) rows.push(await benchProfileFaults(set, profile, width));
  return rows;
}

async function benchProfileFaults(set: FaultSet, profile: FaultProfile, width: number): Promise<Row> {
  const { label } = FAULT_SETS[set];
  const faults = (FAULT_SETS[set].faults as readonly NamedFault[]).map((fault) => ({ name: fault.name, strictOnly: fault.strictOnly === true }));
  let done = 0;
  const outcomes = await inParallel(faults, width, async (fault): Promise<FaultOutcome> => {
    const args = ['--profile', profile, '--seed', '20240605', '--reference-faults', fault.name, ...(fault.strictOnly ? ['--strict'] : [])];
    const run = await runCli(args, { timeoutMs: 10 * 60_000 });
    done += 1;
    progress(`${label} (${profile}): ${done}/${faults.length} ${fault.name}: exit ${run.exitCode}`);
    return { ...fault, exitCode: run.exitCode, requests: run.report?.traffic.requestCount };
  });
  const caught = outcomes.filter((o) => o.exitCode === 1);
  const missed = outcomes.filter((o) => o.exitCode === 0).map((o) => o.name);
  const broken = outcomes.filter((o) => o.exitCode !== 0 && o.exitCode !== 1).map((o) => `${o.name}(${o.exitCode})`);
  const strictCaught = caught.filter((o) => o.strictOnly).length;
  const strictTotal = outcomes.filter((o) => o.strictOnly).length;
  const requests = outcomes.map((o) => o.requests).filter((n): n is number => n !== undefined);
  const share = Math.round((100 * caught.length) / outcomes.length);
  return {
    measure: `${label} caught by --profile ${profile} (exit 1)`,
    value: `${caught.length} / ${outcomes.length} (${share}%)`,
    notes:
      `MUST faults ${caught.length - strictCaught}/${outcomes.length - strictTotal}, strictOnly (with --strict) ${strictCaught}/${strictTotal}; ` +
      `requests per run ${Math.min(...requests)}–${Math.max(...requests)} (median ${median(requests)})` +
      (missed.length ? `; missed: ${missed.join(', ')}` : '') +
      (broken.length ? `; incomplete: ${broken.join(', ')}` : ''),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)] as number);
}
