import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestModule, TestSpecification } from 'vitest/node';
import { ProgressReporter, type ProgressRun, progressHeader } from '../../src/cli/progress.ts';
import { PROFILE_RULES } from '../../src/profiles.ts';
import { runCli, tempDir } from '../support/cli.ts';

const SMALL = ['--only', 'AUTH-001,ERR-001', '--profile', 'quick', '--seed', '5'];
const QUICK_BUDGET = PROFILE_RULES.quick.budget;
const HEADER = new RegExp(
  `^Testing the embedded reference \\(http://127\\.0\\.0\\.1:\\d+/v1\\): profile quick, plan enterprise .*budget ${QUICK_BUDGET} requests, max duration 10:00, seed 5$`,
);
const AREA_LINE = new RegExp(
  `^area [a-z-]+ done: \\d+ passed, \\d+ failed, \\d+ skipped; \\d+ requests? in [\\d.]+ s \\(run: \\d+ of ${QUICK_BUDGET} requests, \\d+:\\d\\d elapsed\\)$`,
);

describe('live progress on stderr', () => {
  it('names target, profile, plan and budget before any test result; one line per area when not a terminal; --quiet keeps only the header', async () => {
    const [run, quiet] = await Promise.all([
      runCli([...SMALL, '--report-dir', tempDir('progress-')]),
      runCli([...SMALL, '--quiet', '--report-dir', tempDir('progress-quiet-')]),
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(HEADER);
    const areas = lines.filter((line) => line.startsWith('area '));
    expect(areas.length).toBeGreaterThanOrEqual(2);
    for (const line of areas) expect(line).toMatch(AREA_LINE);
    expect(areas.map((line) => line.split(' ')[1])).toEqual(expect.arrayContaining(['auth', 'errors']));
    // Progress is on stderr: stdout keeps the summary alone.
    expect(run.stdout).not.toMatch(/^(Testing|area) /m);

    expect(quiet.code, quiet.stdout + quiet.stderr).toBe(0);
    expect(quiet.stderr.split('\n')[0]).toMatch(HEADER);
    expect(quiet.stderr).not.toMatch(/^area /m);
  }, 120_000);
});

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
});
