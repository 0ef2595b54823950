import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestModule, TestSpecification } from 'vitest/node';
import { ProgressReporter, type ProgressRun, progressHeader } from '../../src/cli/progress.ts';
import { tempDir } from '../support/cli.ts';

const fakeModule = (file: string, states: string[], retries = 0) =>
  ({
    moduleId: `/somewhere/suites/${file}.test.ts`,
    diagnostic: () => ({ duration: 1_500 }),
    children: {
      allTests: () =>
        states.map((state) => ({
          result: () => ({ state }),
          meta: () => ({
            conformance: {
              exchanges: [
                { seq: 1, retries },
                { seq: 2, sharedFrom: 'another test' },
              ],
            },
          }),
        })),
    },
  }) as unknown as TestModule;

function reporterFor(options: { tty: boolean; quiet: boolean; budgetLimit?: number }) {
  const ledgerPath = join(tempDir('progress-ledger-'), 'requests.ledger');
  writeFileSync(ledgerPath, '.'.repeat(42));
  const run: ProgressRun = {
    context: { baseUrl: 'https://api.example/v1', embedded: false, profile: 'standard', plan: 'pro', budgetLimit: options.budgetLimit, ledgerPath, seed: 9 },
    maxDurationMs: 45 * 60_000,
  };
  let clock = 0;
  const written: string[] = [];
  const reporter = new ProgressReporter({ run, write: (text) => written.push(text), tty: options.tty, quiet: options.quiet, now: () => (clock += 1_000) });
  const drive = () => {
    // standard expects 51 requests of auth, 15 of errors: the estimate weighs the files by them.
    reporter.onTestRunStart(['auth', 'errors'].map((file) => ({ moduleId: `/somewhere/suites/${file}.test.ts` })) as unknown as TestSpecification[]);
    const auth = fakeModule('auth', ['passed', 'failed', 'skipped'], 1);
    reporter.onTestModuleStart(auth);
    for (const test of auth.children.allTests()) reporter.onTestCaseResult(test);
    reporter.onTestModuleEnd(auth);
    reporter.onTestRunEnd();
  };
  return { run, written, drive };
}

describe('the progress reporter', () => {
  it('reads requests used from the shared ledger; not on a terminal, one plain line per finished area', () => {
    const { written, drive } = reporterFor({ tty: false, quiet: false, budgetLimit: 600 });
    drive();
    expect(written).toEqual(['area auth done: 1 passed, 1 failed, 1 skipped; 3 requests in 1.5 s (run: 42 of 600 requests, 0:01 elapsed)\n']);
  });

  it('on a terminal redraws one line in place (current area, requests, time, an estimate, waits) and clears it at the end', () => {
    const { written, drive } = reporterFor({ tty: true, quiet: false });
    drive();
    expect(written.every((text) => text.startsWith('\r\x1b[K') && !text.includes('\n'))).toBe(true);
    expect(written).toContain('\r\x1b[K[0/2 areas] auth | 0 requests sent | 0:02 elapsed');
    expect(written).toContain('\r\x1b[K[1/2 areas] next area | 3 requests sent | 0:03 elapsed, ~0:01 left; 3 rate-limit waits');
    expect(written.at(-1)).toBe('\r\x1b[K');
  });

  it('--quiet writes nothing, on a terminal or not', () => {
    for (const tty of [true, false]) {
      const { written, drive } = reporterFor({ tty, quiet: true, budgetLimit: 600 });
      drive();
      expect(written).toEqual([]);
    }
  });

  it('the header shows a target URL as text, never raw', () => {
    const { run } = reporterFor({ tty: false, quiet: false, budgetLimit: 600 });
    const header = progressHeader({ ...run, context: { ...run.context, baseUrl: 'https://api.example/v1\x1b[2J' }, shard: '2/3' });
    expect(header).toBe('Testing https://api.example/v1\\x1b[2J: profile standard, plan pro, budget 600 requests, max duration 45:00, seed 9, shard 2/3');
  });

  it('the header says when the run is narrowed, by --only or ASC_ONLY alike', () => {
    const { run } = reporterFor({ tty: false, quiet: false, budgetLimit: 600 });
    expect(progressHeader({ ...run, only: ['auth', 'RATE-001'] })).toMatch(/, seed 9, only auth,RATE-001 \(--only \/ ASC_ONLY\)$/);
    expect(progressHeader({ ...run, only: [] })).not.toContain('only');
  });
});
