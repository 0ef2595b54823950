import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The mutation tooling is plain JavaScript run by Stryker's own process (mutation/*.mjs): loaded here
// through a dynamic import, typed by hand.
interface Listed {
  file: string;
  line: number;
  mutator: string;
  original: string;
  replacement: string;
  status?: string;
  statusReason?: string;
  entry?: number;
}
interface Audit {
  byReason: Record<string, number>;
  ignored: number;
  problems: string[];
}
interface Loaded {
  reasons: Record<string, string>;
  entries: unknown[];
}
const list = (await import('../../mutation/list-mutants.mjs' as string)) as {
  listMutants(files: string[], entriesFile?: string, run?: string): Promise<{ loaded: Loaded; mutants: Listed[] }>;
};
const audit = (await import('../../mutation/audit.mjs' as string)) as { auditEntries(l: Loaded, m: Listed[], files: Set<string>): Audit };
const targets = (await import('../../mutation/targets.mjs' as string)) as { mutatePatterns(o?: { variants?: boolean }): string[] };
const globs = (await import('../../mutation/globs.mjs' as string)) as { selectFiles(p: string[]): string[] };

const FIXTURE = 'test/mutation/fixture/src/two-on-a-line.ts';

function entriesFile(entries: object[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'equivalents-')), 'equivalents.yaml');
  writeFileSync(file, JSON.stringify({ reasons: { test: 'a reason' }, entries }));
  return file;
}

async function run(entries: object[]) {
  const { loaded, mutants } = await list.listMutants([FIXTURE], entriesFile(entries));
  return { mutants, audit: audit.auditEntries(loaded, mutants, new Set(['src/two-on-a-line.ts'])) };
}

const ifFalse = { file: 'src/two-on-a-line.ts', mutator: 'ConditionalExpression', original: 'a > b', replacement: 'false', reason: 'test' };

describe('reviewed equivalent mutants', () => {
  it('an entry ignores its one mutant, not the other replacements of the same mutator on the line', async () => {
    const { mutants, audit: result } = await run([{ ...ifFalse, context: 'if (a > b)' }]);
    const onLine4 = mutants.filter((m) => m.line === 4 && m.original === 'a > b');
    expect(onLine4.map((m) => `${m.mutator} ${m.replacement}`).sort()).toEqual([
      'ConditionalExpression false',
      'ConditionalExpression true',
      'EqualityOperator a <= b',
      'EqualityOperator a >= b',
    ]);
    const ignored = mutants.filter((m) => m.status === 'Ignored');
    expect(ignored.map((m) => `${m.line} ${m.mutator} ${m.replacement}`)).toEqual(['4 ConditionalExpression false']);
    expect(ignored[0]?.statusReason).toMatch(/^\[equivalent test\] #0: a reason$/);
    expect(result).toMatchObject({ ignored: 1, byReason: { test: 1 }, problems: [] });
  });

  it('the same text mutated the same way in two places: without a context the entry says how many it covers', async () => {
    const wrongCount = await run([ifFalse]);
    expect(wrongCount.audit.problems).toEqual([expect.stringMatching(/matches 2 mutants, not 1/)]);
    const counted = await run([{ ...ifFalse, count: 2 }]);
    expect(counted.audit.problems).toEqual([]);
    expect(counted.mutants.filter((m) => m.status === 'Ignored')).toHaveLength(2);
  });

  it('an entry that matches no mutant fails the audit: the list cannot rot', async () => {
    const { audit: result } = await run([{ ...ifFalse, original: 'a >= b' }]);
    expect(result.problems).toEqual([expect.stringMatching(/matches no mutant/)]);
  });

  it('refuses two entries for the same mutant and an entry with an unknown reason', async () => {
    await expect(run([ifFalse, ifFalse])).rejects.toThrow(/name the same mutant/);
    await expect(run([{ ...ifFalse, reason: 'nope' }])).rejects.toThrow(/unknown reason nope/);
  });

  it("the project's list matches exactly the mutants it names in the reference and the variants' code", async () => {
    for (const variants of [false, true]) {
      const files = globs.selectFiles(targets.mutatePatterns({ variants }));
      expect(files).not.toContain('src/reference/faults/all-faults.ts');
      const { loaded, mutants } = await list.listMutants(files, undefined, variants ? 'variants' : 'reference');
      expect(audit.auditEntries(loaded, mutants, new Set(files)).problems).toEqual([]);
    }
  });
});
