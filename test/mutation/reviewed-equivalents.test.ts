import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.ts';

// The mutation tooling is plain JavaScript run by Stryker's own process (mutation/*.mjs): loaded here
// through a dynamic import, typed by hand.
interface Listed {
  file: string;
  line: number;
  at: string;
  source: string;
  mutator: string;
  original: string;
  replacement: string;
  status?: string;
  statusReason?: string;
  entry?: number;
}
interface Audit {
  byReason: Record<string, number>;
  byKind: Record<string, number>;
  ignored: number;
  problems: string[];
}
interface Loaded {
  reasons: Record<string, string>;
  entries: unknown[];
}
const list = (await import('../../mutation/list-mutants.mjs' as string)) as {
  listMutants(files: string[], entriesFile?: string, run?: string, options?: { none?: boolean }): Promise<{ loaded: Loaded; mutants: Listed[] }>;
};
interface Proposal {
  entry: { index: number };
  to?: Listed;
  candidates?: Listed[];
}
const rebinding = (await import('../../mutation/rebind.mjs' as string)) as {
  rebind(entries: unknown[], mutants: unknown[]): Proposal[];
  relocateRange(range: unknown, lines: string[]): string | null | undefined;
};
const equivalents = (await import('../../mutation/reviewed-equivalents.mjs' as string)) as {
  loadEntries(file: string, run?: string, options?: { unbound?: boolean }): Loaded & { ranges: unknown[] };
  normalise(text: string): string;
};
const audit = (await import('../../mutation/audit.mjs' as string)) as { auditEntries(l: Loaded, m: Listed[], files: Set<string>): Audit };
const targets = (await import('../../mutation/targets.mjs' as string)) as { mutatePatterns(o?: { variants?: boolean }): string[] };
const globs = (await import('../../mutation/globs.mjs' as string)) as { selectFiles(p: string[]): string[] };

const FIXTURE = 'test/mutation/fixture/src/two-on-a-line.ts';

function entriesFile(entries: object[], ranges: object[] = [], more: object = {}): string {
  const file = join(tempDir('equivalents-'), 'equivalents.yaml');
  writeFileSync(file, JSON.stringify({ reasons: { test: 'a reason' }, entries, ranges, ...more }));
  return file;
}

async function run(entries: object[], ranges: object[] = [], more: object = {}) {
  const { loaded, mutants } = await list.listMutants([FIXTURE], entriesFile(entries, ranges, more));
  return { mutants, audit: audit.auditEntries(loaded, mutants, new Set(['src/two-on-a-line.ts'])) };
}

const LINE_4 = "if (a > b) return 'first';";
const LINE_5 = "return a > b ? 'never' : 'second';";
const ifFalse = {
  file: 'src/two-on-a-line.ts',
  mutator: 'ConditionalExpression',
  original: 'a > b',
  replacement: 'false',
  reason: 'test',
  at: '4:7',
  source: LINE_4,
};

/** The fixture's mutants as mutation/rebind.mjs reads them: no entry applied, keyed without the location. */
async function unbound() {
  const { mutants } = await list.listMutants([FIXTURE], entriesFile([]), undefined, { none: true });
  return mutants.map((m) => ({
    ...m,
    file: 'src/two-on-a-line.ts',
    source: equivalents.normalise(m.source),
    key: ['src/two-on-a-line.ts', m.mutator, m.original, m.replacement].join('\0'),
  }));
}

describe('reviewed equivalent mutants', () => {
  it('an entry ignores its one mutant, at its location, not the other replacements of the same mutator nor the same text elsewhere', async () => {
    const { mutants, audit: result } = await run([ifFalse]);
    const onLine4 = mutants.filter((m) => m.line === 4 && m.original === 'a > b');
    expect(onLine4.map((m) => `${m.mutator} ${m.replacement}`).sort()).toEqual([
      'ConditionalExpression false',
      'ConditionalExpression true',
      'EqualityOperator a <= b',
      'EqualityOperator a >= b',
    ]);
    const ignored = mutants.filter((m) => m.status === 'Ignored');
    expect(ignored.map((m) => `${m.at} ${m.mutator} ${m.replacement}`)).toEqual(['4:7 ConditionalExpression false']);
    expect(ignored[0]?.statusReason).toMatch(/^\[equivalent test\] #0: a reason$/);
    expect(result).toMatchObject({ ignored: 1, byReason: { test: 1 }, problems: [] });
  });

  it('an entry whose location no longer holds its text fails the audit: moved code costs a review', async () => {
    const moved = await run([{ ...ifFalse, at: '5:10' }]);
    expect(moved.audit.problems).toEqual([expect.stringMatching(/#0 src\/two-on-a-line.ts:5:10 .* matches no mutant: its location no longer holds its text/)]);
    const edited = await run([{ ...ifFalse, source: "if (a > b) return 'one';" }]);
    expect(edited.audit.problems).toEqual([expect.stringMatching(/matches no mutant/)]);
    expect(edited.mutants.filter((m) => m.status === 'Ignored')).toEqual([]);
  });

  it('the same text mutated the same way in two places takes two entries, each at its own location', async () => {
    const both = await run([ifFalse, { ...ifFalse, at: '5:10', source: LINE_5 }]);
    expect(both.audit.problems).toEqual([]);
    expect(both.mutants.filter((m) => m.status === 'Ignored').map((m) => m.at)).toEqual(['4:7', '5:10']);
  });

  it('tags and counts a permitted mutant apart from an equivalent one', async () => {
    const reasons = { test: 'a reason', allowed: 'the interface allows both' };
    const { mutants, audit: result } = await run([ifFalse, { ...ifFalse, replacement: 'true', reason: 'allowed' }], [], { reasons, permitted: ['allowed'] });
    const tags = mutants.filter((m) => m.status === 'Ignored').map((m) => m.statusReason?.replace(/\] #.*$/, ']'));
    expect(tags.sort()).toEqual(['[equivalent test]', '[permitted allowed]']);
    expect(result).toMatchObject({ ignored: 2, byKind: { equivalent: 1, permitted: 1 }, problems: [] });
    await expect(run([ifFalse], [], { permitted: ['nope'] })).rejects.toThrow(/permitted names the unknown reason nope/);
  });

  it('fails the audit on an entry of a retired reason, which the liberty stage judges itself', async () => {
    for (const retired of ['variant-choice', 'variant-only']) {
      const { audit: result } = await run([{ ...ifFalse, reason: retired }], [], { reasons: { [retired]: 'the interface allows both' } });
      expect(result.problems).toEqual([expect.stringMatching(new RegExp(`#0 .* names the retired reason ${retired}: the liberty stage`))]);
    }
  });

  it('an entry that matches no mutant fails the audit: the list cannot rot', async () => {
    const { audit: result } = await run([{ ...ifFalse, original: 'a >= b' }]);
    expect(result.problems).toEqual([expect.stringMatching(/matches no mutant/)]);
  });

  it('refuses two entries for the same mutant, an entry with an unknown reason, without a location, or with a count', async () => {
    await expect(run([ifFalse, ifFalse])).rejects.toThrow(/name the same mutant/);
    await expect(run([{ ...ifFalse, reason: 'nope' }])).rejects.toThrow(/unknown reason nope/);
    await expect(run([{ ...ifFalse, at: undefined }])).rejects.toThrow(/lacks at/);
    await expect(run([{ ...ifFalse, count: 2 }])).rejects.toThrow(/count is gone/);
  });

  it('a reviewed range ignores the mutants starting on its lines while they read as written, and fails once they moved', async () => {
    const range = { file: 'src/two-on-a-line.ts', lines: '5-5', first: LINE_5, last: LINE_5, reason: 'test' };
    const held = await run([ifFalse], [range]);
    expect(held.audit.problems).toEqual([]);
    const ignored = held.mutants.filter((m) => m.status === 'Ignored');
    expect(ignored.filter((m) => m.line === 5).length).toBe(held.mutants.filter((m) => m.line === 5).length);
    expect(ignored.filter((m) => m.line === 4).map((m) => m.at)).toEqual(['4:7']);
    expect(ignored.find((m) => m.line === 5)?.statusReason).toMatch(/^\[equivalent test\] range #0: a reason$/);
    const moved = await run([], [{ ...range, lines: '4-4' }]);
    expect(moved.mutants.filter((m) => m.status === 'Ignored')).toEqual([]);
    expect(moved.audit.problems).toEqual([expect.stringMatching(/range #0 .* ignores no mutant: its lines no longer read as it says/)]);
    const [loadedRange] = equivalents.loadEntries(entriesFile([], [{ ...range, lines: '4-4' }]), undefined, { unbound: true }).ranges;
    expect(rebinding.relocateRange(loadedRange, readFileSync(FIXTURE, 'utf8').split('\n'))).toBe('5-5');
  });

  it('rebind re-locates an entry whose text and source line moved unchanged, and leaves an ambiguous one for review', async () => {
    const file = entriesFile([
      { ...ifFalse, at: '9:7' },
      { ...ifFalse, at: undefined, source: undefined, replacement: 'true' },
      { ...ifFalse, at: undefined, source: undefined, replacement: 'true', context: 'return a > b' },
    ]);
    const proposals = rebinding.rebind(equivalents.loadEntries(file, undefined, { unbound: true }).entries, await unbound());
    expect(proposals.map((p) => [p.entry.index, p.to?.at, p.candidates?.map((m) => m.at)])).toEqual([
      [0, '4:7', undefined],
      [1, undefined, ['4:7', '5:10']],
      [2, '5:10', undefined],
    ]);
  });

  it("the project's list matches exactly the mutants it names in the reference and the variants' code", async () => {
    for (const variants of [false, true]) {
      const files = globs.selectFiles(targets.mutatePatterns({ variants }));
      expect(files).not.toContain('src/reference/faults/all-faults.ts');
      const { loaded, mutants } = await list.listMutants(files, undefined, variants ? 'variants' : 'reference');
      expect(audit.auditEntries(loaded, mutants, new Set(files)).problems).toEqual([]);
      expect(loaded.entries.filter((e) => ['variant-choice', 'variant-only'].includes((e as { reason: string }).reason))).toEqual([]);
    }
  });
});
