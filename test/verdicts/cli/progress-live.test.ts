import { describe, expect, it } from 'vitest';
import { PROFILE_RULES } from '../../../src/config/profiles.ts';
import { runCli, tempDir } from '../../support/cli.ts';

const SMALL = ['--only', 'AUTH-001,ERR-001', '--profile', 'quick', '--seed', '5'];
const QUICK_BUDGET = PROFILE_RULES.quick.budget;
const HEADER = new RegExp(
  `^Testing the embedded reference \\(http://127\\.0\\.0\\.1:\\d+/v1\\): profile quick, plan enterprise .*budget ${QUICK_BUDGET} requests, max duration 10:00, seed 5, only AUTH-001,ERR-001 \\(--only / ASC_ONLY\\)$`,
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
