import type { Row } from './common.ts';
import { FAULTS } from '../../../src/reference/index.ts';
import { inParallel, runCli } from '../lib/processes.ts';
import { progress } from '../lib/paths.ts';

interface FaultOutcome {
  name: string;
  strictOnly: boolean;
  exitCode: number | null;
}

/**
 * How many catalogue faults the quick profile catches (exit code 1) on the embedded reference.
 * Faults that break only SHOULD requirements (strictOnly) are run with --strict, where they count.
 */
export async function benchFaults(width = 2): Promise<Row[]> {
  const faults = FAULTS.map((fault) => ({ name: fault.name, strictOnly: 'strictOnly' in fault && fault.strictOnly === true }));
  let done = 0;
  const outcomes = await inParallel(faults, width, async (fault): Promise<FaultOutcome> => {
    const args = ['--profile', 'quick', '--reference-faults', fault.name, ...(fault.strictOnly ? ['--strict'] : [])];
    const run = await runCli(args, { timeoutMs: 5 * 60_000 });
    done += 1;
    progress(`faults: ${done}/${faults.length} ${fault.name}: exit ${run.exitCode}`);
    return { ...fault, exitCode: run.exitCode };
  });
  const caught = outcomes.filter((o) => o.exitCode === 1);
  const missed = outcomes.filter((o) => o.exitCode === 0).map((o) => o.name);
  const broken = outcomes.filter((o) => o.exitCode !== 0 && o.exitCode !== 1).map((o) => `${o.name}(${o.exitCode})`);
  const strictCaught = caught.filter((o) => o.strictOnly).length;
  const strictTotal = outcomes.filter((o) => o.strictOnly).length;
  return [
    {
      measure: 'faults caught by --profile quick (exit 1)',
      value: `${caught.length} / ${outcomes.length}`,
      notes:
        `MUST faults ${caught.length - strictCaught}/${outcomes.length - strictTotal}, strictOnly (with --strict) ${strictCaught}/${strictTotal}` +
        (missed.length ? `; missed: ${missed.join(', ')}` : '') +
        (broken.length ? `; incomplete: ${broken.join(', ')}` : ''),
    },
  ];
}
