import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { FAULT_NAMES, VARIANT_NAMES } from '../../src/reference/index.ts';
import { INDEPENDENT_FAULTS, OUTSIDE_FAULT_NAMES } from '../../src/reference/faults/all-faults.ts';
import { howToCover } from '../../src/report/untested-scope.ts';
import { ROOT, readReport, runCli, tempDir } from '../support/cli.ts';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** main() in this process: what it printed, line by line, and its exit code. */
async function run(argv: readonly string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(argv, (line) => lines.push(...line.split('\n')));
  return { code, lines };
}

describe('asking for help or the version is never a usage error', () => {
  it.each([
    [['--version'], new RegExp(`^animal-store-conformance ${VERSION.replace(/\./g, '\\.')}$`)],
    [['-V'], /^animal-store-conformance \d+\.\d+\.\d+/],
    [['help'], /^Usage: animal-store-conformance \[options\]/],
    [['--help'], /^Usage: animal-store-conformance \[options\]/],
    [['--profile', 'quick', '-h'], /^Usage: animal-store-conformance \[options\]/],
    [['help', 'compare'], /^Usage: animal-store-conformance compare/],
    [['compare', '--help'], /^Usage: animal-store-conformance compare/],
    [['help', 'faults'], /^Faults for --reference-faults <names>/],
    [['help', 'variants'], /^Valid variants for --reference-variants <names>/],
  ])('%j: exit 0, and no report written over the last one', async (argv, first) => {
    const dir = tempDir('cli-info-');
    const { code, lines } = await run([...argv, '--report-dir', dir]);
    expect(code).toBe(0);
    expect(lines[0]).toMatch(first);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('the installed bin answers --version too (a child process, as a user runs it)', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`animal-store-conformance ${VERSION}`);
  });

  it('help of a command that does not exist: exit 2, naming the commands', async () => {
    const { code, lines } = await run(['help', 'frobnicate']);
    expect(code).toBe(2);
    expect(lines).toEqual([
      'animal-store-conformance: no help on "frobnicate"; there is help on compare, verify, rejudge, keygen, matrix, reference, faults and variants (see --help)',
    ]);
  });
});

describe("the newcomer's mistakes: one clear line each, exit 2, and the INCOMPLETE report said in one line", () => {
  /** Exactly two lines: the problem, and that the INCOMPLETE report was written (so CI never uploads a stale one). */
  async function rejected(argv: readonly string[], files: Record<string, string> = {}): Promise<{ message: string; dir: string }> {
    const dir = tempDir('cli-forgive-');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const withPaths = argv.map((arg) => (arg in files || arg === 'missing.yaml' ? join(dir, arg) : arg));
    const { code, lines } = await run([...withPaths, '--report-dir', join(dir, 'reports')]);
    expect(code).toBe(2);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^INCOMPLETE \(exit 2\): the reports say why: .*conformance\.json/);
    expect(readReport(join(dir, 'reports')).verdict.overall).toBe('incomplete');
    return { message: lines[0] as string, dir };
  }

  it('--timeout -1 says what is wrong with the value, not "ambiguous"', async () => {
    const { message } = await rejected(['--timeout', '-1']);
    expect(message).toMatch(/--timeout must be a positive integer/);
    expect(message).not.toMatch(/ambiguous/);
  });

  it('--seed -5 is a seed (the value starts with a dash)', async () => {
    const { message } = await rejected(['--seed', '-5', '--profile', 'nope']);
    expect(message).toMatch(/--profile must be one of/);
  });

  it('a missing --baseline is called the baseline, with why', async () => {
    const { message } = await rejected(['--baseline', 'missing.yaml']);
    expect(message).toMatch(/^animal-store-conformance: cannot read the baseline \(--baseline\) .*missing\.yaml: no such file$/);
    expect(message).not.toMatch(/expected deviations/);
  });

  it('a malformed YAML baseline: one line, not seven from the parser', async () => {
    const { message } = await rejected(['--baseline', 'bad.yaml'], { 'bad.yaml': 'foo: [bar\n  - x: :\n' });
    expect(message).toMatch(/bad\.yaml: not YAML or JSON \(.+\)$/);
  });

  it('an unknown id in --expected-deviations is an error naming the known ids, not a CONFORMANT with a note', async () => {
    const { message } = await rejected(['--expected-deviations', 'dev.yaml'], { 'dev.yaml': '- id: AUTH-999\n  reason: a typo\n' });
    expect(message).toMatch(/--expected-deviations names no requirement of the catalog: AUTH-999 \(the ids: .*AUTH-001…\d{3}.*RATE-001/);
  });

  it('an unknown id in --baseline too', async () => {
    const { message } = await rejected(['--baseline', 'base.yaml'], { 'base.yaml': '- id: NOPE-1\n  reason: x\n' });
    expect(message).toMatch(/--baseline names no requirement of the catalog: NOPE-1 \(the ids: .*AUTH-001…/);
  });

  it('--reference-faults bogus says how to list the faults, in one line that is not cut', async () => {
    const { message } = await rejected(['--reference-faults', 'bogus', '--profile', 'quick']);
    expect(message).toMatch(/^animal-store-conformance: unknown fault "bogus" \(\d+ faults are known: `animal-store-conformance help faults` lists them\)$/);
  });

  it('a mistyped fault or variant name suggests the one meant', async () => {
    const fault = await rejected(['--reference-faults', 'auth-nne', '--profile', 'quick']);
    expect(fault.message).toMatch(/unknown fault "auth-nne"; did you mean auth-none[,?]/);
    const variant = await rejected(['--reference-variants', 'integer-forms-refusd', '--profile', 'quick']);
    expect(variant.message).toMatch(/unknown variant "integer-forms-refusd"; did you mean integer-forms-refused[,?]/);
  });

  it('help faults lists every fault name, one per line, and help variants every variant', async () => {
    const faults = await run(['help', 'faults']);
    const listed = faults.lines.slice(1).map((line) => line.trim().split(/\s+/)[0]);
    for (const name of [...FAULT_NAMES, ...INDEPENDENT_FAULTS.map((f) => f.name), ...OUTSIDE_FAULT_NAMES]) expect(listed).toContain(name);
    const variants = await run(['help', 'variants']);
    expect(variants.lines.slice(1).map((line) => line.trim().split(/\s+/)[0])).toEqual([...VARIANT_NAMES]);
  });

  it('an unknown flag: the problem, then the INCOMPLETE line', async () => {
    const { message } = await rejected(['--frobnicate']);
    expect(message).toMatch(/unknown option --frobnicate \(see --help\)/);
  });
});

describe('how to cover what a replay did not run', () => {
  it('a replay says run without --replay, not "without --only" it never used', () => {
    expect(howToCover('not-selected', 'not a failing test of the replayed report (--replay)')).toBe('run again without --replay (a full run)');
    expect(howToCover('not-selected', 'not selected (--only AUTH)')).toBe('run without --only');
    expect(howToCover('key-too-large', 'the key allows 59 more requests this window; the quick budget has 30 left')).toMatch(
      /^use --profile standard, whose budget holds a Free-plan window/,
    );
    expect(howToCover('key-too-large', 'the key allows 999 more requests this window; the standard budget has 300 left')).toMatch(/or use --profile thorough$/);
  });
});
