import { afterAll, describe, test, vi } from 'vitest';
import { FAULTS } from '../../src/reference/faults/index.ts';
import { type FaultOutcome, describeMisses, judgeFault, planFault } from './support/fault-plan.ts';
import { formatFaultTable, writeFaultTable } from './support/fault-table.ts';
import { createLimiter } from './support/limiter.ts';
import { runCliInTest } from './support/run-cli.ts';
import { runRejudge } from '../../src/cli/rejudge-command.ts';

/**
 * Proves the suite's "not conformant": the CLI runs against the embedded reference with each named
 * fault (src/reference/faults), limited with --only to the areas of the fault's detectedBy, and must
 * exit 1 with every detectedBy requirement failing (fail for a MUST; warn or fail for a SHOULD; faults
 * only SHOULD requirements catch run with --strict). A fault only ADVISORY requirements catch must make
 * them warn while the run, --strict included, still exits 0: an advisory never fails a run. Two CLI runs at a time: each keeps a core busy.
 * At the end a table fault → failed requirements → expected → OK/MISSED is printed and written to
 * the OS temp dir (FAULT_TABLE_PATH).
 */

const CONCURRENCY = 2;
/** A focused run takes 10–60 s (more on a loaded machine); past this it is killed and fails. */
const RUN_TIMEOUT_MS = 240_000;

// Vitest starts only two of the concurrent tests at a time, so a test's timeout counts its own run only.
vi.setConfig({ maxConcurrency: CONCURRENCY });

describe('fault sensitivity: each reference fault makes the suite say NOT CONFORMANT', () => {
  // Also bounds the child processes should the runner's concurrency setting not apply.
  const limiter = createLimiter(CONCURRENCY);
  const outcomes: FaultOutcome[] = [];

  afterAll(() => {
    const table = formatFaultTable(FAULTS, outcomes);
    const path = writeFaultTable(table);
    console.log(`${table}\n(written to ${path})`);
  });

  for (const fault of FAULTS) {
    const plan = planFault(fault);
    const title = `${fault.name} is caught by ${fault.detectedBy.join(', ')}${plan.advisory ? ' (advisory, --strict)' : plan.strict ? ' (--strict)' : ''}`;
    test.concurrent(
      title,
      async ({ expect, onTestFinished }) => {
        const run = await limiter.run(() => runCliInTest({ onTestFinished }, plan.args, { timeoutMs: RUN_TIMEOUT_MS, label: fault.name }));
        const outcome = judgeFault(plan, run.exitCode, run.report, run.durationMs);
        outcomes.push(outcome);
        const replay = `npm run conformance -- ${plan.args.join(' ')}   (reports kept in ${run.reportDir})`;
        const why = `${describeMisses(outcome, run.report)}\nreplay: ${replay}\n${run.stderr.slice(-2000)}`;
        expect(run.killedAfterMs, `the run outlived ${RUN_TIMEOUT_MS} ms\n${why}`).toBeUndefined();
        expect(run.report, `no conformance.json was written\n${why}`).toBeDefined();
        expect(outcome.missed, `detectedBy requirements that did not fail\n${why}`).toEqual([]);
        // The verdict is the log's: re-judged from the run's exchanges.har alone, it comes out the same.
        const rejudged: string[] = [];
        expect(
          runRejudge([run.reportDir], (line) => rejudged.push(line)),
          `rejudge ${run.reportDir}\n${rejudged.join('\n')}`,
        ).toBe(0);
        if (plan.advisory)
          expect({ exitCode: run.exitCode, ok: outcome.ok }, `an advisory must warn and never fail the run\n${why}`).toEqual({ exitCode: 0, ok: true });
        else expect({ exitCode: run.exitCode, overall: outcome.overall }, why).toEqual({ exitCode: 1, overall: 'not-conformant' });
      },
      RUN_TIMEOUT_MS + 30_000,
    );
  }
});
