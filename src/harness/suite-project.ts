import { mkdirSync } from 'node:fs';
import { join, sep } from 'node:path';

/**
 * The conformance project's vitest options, in one place: vitest.config.ts's `conformance` project is
 * made of them, and the CLI passes them inline, which spares every run the loading of the config file
 * (bundling vitest.config.ts and its imports costs a run about 0.2 s of CPU).
 */
export function suiteProject() {
  return {
    name: 'conformance',
    include: ['suites/**/*.test.ts'],
    // The suites keep no module state, so files may share a worker's modules: the spec and the catalog
    // are compiled once per worker instead of once per file.
    pool: 'threads' as const,
    isolate: false,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  };
}

/**
 * vitest's on-disk cache of transformed modules, kept in the package's node_modules between runs where
 * the package may write there (not in a read-only install); nothing otherwise.
 */
export function moduleCacheOptions(root: string): { fsModuleCache?: true; fsModuleCachePath?: string } {
  const path = join(root, 'node_modules', '.experimental-vitest-cache');
  try {
    mkdirSync(path, { recursive: true });
    return { fsModuleCache: true, fsModuleCachePath: path };
  } catch {
    return {};
  }
}

/**
 * When the CLI runs compiled (dist/), the workers run the same build: the suites' imports of src/ are
 * answered by dist/, which Node loads itself (externalised) instead of vite's module runner transforming
 * every TypeScript module of src/ again in each worker. Only the suite files (and suites/support/) still
 * pass through vite. Run from the TypeScript sources (the unit tests), nothing changes.
 */
export function compiledSourceOptions(root: string, runningFrom: string) {
  const dist = join(root, 'dist');
  if (!runningFrom.startsWith(`${dist}${sep}`)) return { vite: {}, server: {} };
  const prefix = `${dist}${sep}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    vite: { resolve: { alias: [{ find: /^(?:\.\.\/)+src\/(.+)\.ts$/, replacement: `${dist}/$1.js` }] } },
    server: { deps: { external: [new RegExp(`^${prefix}`)] } },
  };
}
