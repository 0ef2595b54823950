import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

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
