import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { EARLY_PRELOAD, type WorkerLaunch, expectedLaunch, sameLaunch } from '../../src/harness/early-workers.ts';

const HARNESS = fileURLToPath(new URL('../../src/harness/', import.meta.url));
const SUITES = fileURLToPath(new URL('../../suites/', import.meta.url));

/** The value imports of a TypeScript module (type-only imports and re-exports left out). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
    if (match[1] === undefined) found.push(match[2] as string);
  }
  return found;
}

/** Every module `entry` loads, by path or package name, following the relative imports of src/. */
function moduleGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('/')) continue;
    for (const specifier of valueImports(file)) {
      pending.push(specifier.startsWith('.') ? resolve(dirname(file), specifier.replace(/\.js$/, '.ts')) : specifier);
    }
  }
  return seen;
}

const callsVitest = (graph: Set<string>) => [...graph].some((name) => name === 'vitest' || name.startsWith('vitest/'));

describe('EARLY_PRELOAD', () => {
  it('loads no module that calls vitest as it loads (it would fail outside a test file, and stay failed)', ({ expect }) => {
    for (const specifier of EARLY_PRELOAD) {
      const graph = moduleGraph(specifier.startsWith('.') ? resolve(HARNESS, specifier.replace(/\.js$/, '.ts')) : specifier);
      expect(callsVitest(graph), specifier).toBe(false);
    }
  });

  it('holds every module the suite files import that does not reach vitest (what a first file would load)', ({ expect }) => {
    const preloaded = new Set(
      EARLY_PRELOAD.flatMap((specifier) => [...moduleGraph(specifier.startsWith('.') ? resolve(HARNESS, specifier.replace(/\.js$/, '.ts')) : specifier)]),
    );
    const suiteFiles = readdirSync(SUITES, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    const imported = new Set(
      suiteFiles.flatMap((name) => {
        const file = join(SUITES, name);
        return valueImports(file).map((specifier) => (specifier.startsWith('.') ? resolve(dirname(file), specifier) : specifier));
      }),
    );
    const missing = [...imported].filter(
      (module) => !module.startsWith(SUITES) && !module.startsWith('node:') && !preloaded.has(module) && !callsVitest(moduleGraph(module)),
    );
    expect(missing).toEqual([]);
  });

  it('the graph walk sees vitest where it is loaded: the harness index reaches it', ({ expect }) => {
    expect(callsVitest(moduleGraph(join(HARNESS, 'index.ts')))).toBe(true);
  });
});

describe('sameLaunch', () => {
  const launch: WorkerLaunch = { entry: '/v/dist/workers/threads.js', env: { A: '1', B: '' }, execArgv: ['--x', '--y'] };
  it.for<[string, WorkerLaunch]>([
    ['another entry', { ...launch, entry: '/v/dist/workers/forks.js' }],
    ['flags in another order', { ...launch, execArgv: ['--y', '--x'] }],
    ['one flag of two changed', { ...launch, execArgv: ['--x', '--z'] }],
    ['a flag more', { ...launch, execArgv: ['--x', '--y', '--z'] }],
    ['a flag less', { ...launch, execArgv: ['--x'] }],
    ['a variable with another value', { ...launch, env: { A: '2', B: '' } }],
    ['a variable more', { ...launch, env: { A: '1', B: '', C: '' } }],
    ['a variable less', { ...launch, env: { A: '1' } }],
    ['a variable renamed', { ...launch, env: { A: '1', C: '' } }],
  ])('%s is another launch', ([, other], { expect }) => {
    expect(sameLaunch(launch, other)).toBe(false);
    expect(sameLaunch(other, launch)).toBe(false);
  });

  it('a copy is the same launch', ({ expect }) => {
    expect(sameLaunch(launch, { entry: launch.entry, env: { B: '', A: '1' }, execArgv: [...launch.execArgv] })).toBe(true);
  });
});

describe('expectedLaunch', () => {
  it('adds what vite and vitest add to the environment, keeping what the user set', ({ expect }) => {
    const unset = expectedLaunch({ PATH: '/bin' }, [], false);
    expect(unset.env).toEqual({
      PATH: '/bin',
      NODE_ENV: 'development',
      PROD: '',
      DEV: '1',
      BASE_URL: '/',
      MODE: 'test',
      TEST: 'true',
      VITEST: 'true',
      VITEST_MODE: 'RUN',
      FORCE_TTY: '',
    });
    const production = expectedLaunch({ NODE_ENV: 'production', MODE: 'mine' }, [], true);
    expect(production.env).toMatchObject({ NODE_ENV: 'production', PROD: '1', DEV: '', MODE: 'mine', FORCE_TTY: 'true' });
    expect(production.execArgv.slice(-2)).toEqual(['--conditions', 'production']);
    expect(unset.execArgv.slice(-2)).toEqual(['--conditions', 'development']);
  });

  it("passes on this process's profiling flags, and no other", ({ expect }) => {
    const { execArgv } = expectedLaunch(
      {},
      ['--cpu-prof', '--cpu-prof-dir=/p', '--max-old-space-size=100', '--heap-prof-dir=/h', '--diagnostic-dir=/d'],
      false,
    );
    expect(execArgv.slice(0, 5)).toEqual([
      '--cpu-prof',
      '--cpu-prof-dir=/p',
      '--heap-prof-dir=/h',
      '--diagnostic-dir=/d',
      '--experimental-import-meta-resolve',
    ]);
    expect(execArgv).not.toContain('--max-old-space-size=100');
  });
});
