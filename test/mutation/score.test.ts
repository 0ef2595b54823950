import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.ts';

// mutation/score.mjs is plain JavaScript run by the mutation run's own process: typed by hand here.
interface Mutant {
  id?: string;
  file: string;
  status: string;
  statusReason?: string;
}
const score = (await import('../../mutation/score.mjs' as string)) as {
  mutantsOf(report: unknown): Mutant[];
  readReport(file: string): unknown;
  keepReport(file: string, run: string, options: { dir: string; now: Date; stages?: string }): string;
  stagesOf(log: string): Record<string, string>;
  figures(mutants: Mutant[]): {
    all: number;
    detected: number;
    undetected: number;
    ignored: number;
    score: number;
    ignoredShare: number;
    byReason: Record<string, number>;
    byKind: Record<string, number>;
  };
  scoreLines(mutants: Mutant[], stages?: Record<string, string>): string[];
};

const report = {
  schemaVersion: '1',
  files: {
    '/sandbox/src/reference/a.ts': {
      mutants: [
        { status: 'Killed' },
        { status: 'Killed' },
        { status: 'Timeout' },
        { status: 'Survived' },
        { status: 'Ignored', statusReason: '[equivalent message-free] #3: free text' },
        { status: 'Ignored', statusReason: '[permitted code-free] #4: any code' },
      ],
    },
    'src/reference/b.ts': { mutants: [{ status: 'NoCoverage' }, { status: 'Ignored', statusReason: 'a disable comment' }] },
  },
};

describe('mutation scores', () => {
  it('score = detected / (all − ignored), and the ignored share of all, by reason and by file', () => {
    const mutants = score.mutantsOf(report);
    expect(mutants.map((m) => m.file)).toContain('src/reference/a.ts');
    const f = score.figures(mutants);
    expect(f).toMatchObject({ all: 8, detected: 3, undetected: 2, ignored: 3, byReason: { 'message-free': 1, 'code-free': 1, '(not a reviewed entry)': 1 } });
    expect(f.score).toBeCloseTo(60);
    expect(f.ignoredShare).toBeCloseTo(37.5);
    const lines = score.scoreLines(mutants);
    expect(lines[1]).toBe('score 60.00% (detected / (all − ignored) = 3 / 5); ignored 37.5% of all');
    expect(lines).toContain('  src/reference/b.ts: 2 mutants, 0.0% detected, 1 ignored (50%), 1 survived');
  });

  it('counts the ignored equivalent mutants apart from those the interface permits', () => {
    const f = score.figures(score.mutantsOf(report));
    expect(f.byKind).toEqual({ equivalent: 1, permitted: 1, other: 1 });
    expect(score.scoreLines(score.mutantsOf(report))[2]).toBe(
      'ignored by kind: equivalent 1 (no client can tell), permitted 1 (the interface allows both), other 1',
    );
  });

  it("keeps a run's report gzipped under its date, commit and run, and reads it back", () => {
    const dir = tempDir('mutation-reports-');
    const written = join(dir, 'mutation.json');
    writeFileSync(written, JSON.stringify(report));
    const kept = score.keepReport(written, 'mutation', { dir, now: new Date('2026-11-25T18:00:00Z') });
    expect(kept).toMatch(/\/2026-11-25T18-00-00-[0-9a-f]+(-dirty)?-mutation\.json\.gz$/);
    expect(readdirSync(dir)).toHaveLength(2);
    expect(score.readReport(kept)).toEqual(report);
  });

  it('keeps the stage that detected each mutant, and counts the killed ones by stage', () => {
    const dir = tempDir('mutation-reports-');
    const written = join(dir, 'mutation.json');
    const staged = {
      files: {
        'src/reference/a.ts': {
          mutants: [
            { id: '1', status: 'Killed' },
            { id: '2', status: 'Killed' },
            { id: '3', status: 'Killed' },
            { id: '4', status: 'Timeout' },
            { id: '5', status: 'Survived' },
          ],
        },
      },
    };
    writeFileSync(written, JSON.stringify(staged));
    const kept = score.keepReport(written, 'mutation', { dir, now: new Date('2026-11-25T18:00:00Z'), stages: '1 default\n2 liberty-test\n3 default\n' });
    const back = score.readReport(kept) as { detectingStages: Record<string, string> };
    expect(back.detectingStages).toEqual({ 1: 'default', 2: 'liberty-test', 3: 'default' });
    expect(score.scoreLines(score.mutantsOf(back), back.detectingStages)).toContain('killed by stage: default 2, liberty-test 1');
  });
});
