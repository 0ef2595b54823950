import { describe, test, vi } from 'vitest';
import { createLimiter } from './support/limiter.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * What quick spends its main key's requests on (docs/architecture.md, "What the quick profile spends")
 * stays spent there: the faults of the classes the independent and outside sets ship most often, here
 * as the project's own named faults, make a quick run NOT CONFORMANT by the requirement that catches
 * them at quick. (`npm run bench -- --only faults --fault-sets independent,outside` measures the share.)
 */

const CONCURRENCY = 2;
const RUN_TIMEOUT_MS = 240_000;

vi.setConfig({ maxConcurrency: CONCURRENCY });

const CASES = [
  // A list without a default page shows only past 20 animals: quick stores 21.
  { fault: 'limit-ignored', only: 'limits', fails: 'LIM-003' },
  // limit=0 taken as given: an empty list from the store of 21.
  { fault: 'limit-zero-honoured', only: 'limits', fails: 'LIM-004' },
  // status=AVAILABLE matched without regard to case.
  { fault: 'status-filter-folds-case', only: 'limits', fails: 'LIM-007' },
] as const;

describe('quick catches the faults shipped most often', () => {
  const limiter = createLimiter(CONCURRENCY);
  for (const { fault, only, fails } of CASES) {
    test.concurrent(
      `${fault} at quick fails ${fails}`,
      async ({ expect, onTestFinished }) => {
        const args = ['--reference-faults', fault, '--profile', 'quick', '--only', only];
        const run = await limiter.run(() => runCliInTest({ onTestFinished }, args, { timeoutMs: RUN_TIMEOUT_MS, label: fault }));
        const why = `npm run conformance -- ${args.join(' ')}\n${run.stderr.slice(-2000)}`;
        expect(run.report, `no conformance.json was written\n${why}`).toBeDefined();
        const verdict = run.report?.requirements.find((r) => r.id === fails)?.verdict;
        expect({ exitCode: run.exitCode, overall: run.report?.verdict.overall, [fails]: verdict }, why).toEqual({
          exitCode: 1,
          overall: 'not-conformant',
          [fails]: 'fail',
        });
      },
      RUN_TIMEOUT_MS + 30_000,
    );
  }
});
