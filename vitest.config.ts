import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const MODULE_CACHE = fileURLToPath(new URL('./node_modules/.experimental-vitest-cache', import.meta.url));

/** Transformed modules are cached on disk between runs, where the package may write (not in a read-only install). */
function moduleCacheWritable(): boolean {
  try {
    mkdirSync(MODULE_CACHE, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

// Three projects: `unit` is the project's own tests, in process (npm test, two minutes at most);
// `verdicts` everything that drives whole CLI runs, against faulty and valid servers or as a user would
// (npm run test:verdicts; .ci/run runs both); `conformance` is the product, the suites run against a
// target (npm run conformance).
export default defineConfig({
  test: {
    experimental: moduleCacheWritable() ? { fsModuleCache: true, fsModuleCachePath: MODULE_CACHE } : {},
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          // Whole CLI runs, whole installs and simulated Action runs take seconds to minutes each: they run
          // with the verdict proofs.
          exclude: ['test/verdicts/**', 'test/package/**'],
          // The project keeps no module state, so the files of a worker share its modules: src, the spec's
          // Ajv compile and vitest itself load once per worker rather than once per file.
          isolate: false,
          // vitest's default on two cores is one worker; the tests are CPU-bound and in-process.
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'verdicts',
          include: ['test/verdicts/**/*.test.ts', 'test/package/**/*.test.ts'],
          // Projects with different worker counts run as separate groups when several are asked for at once.
          sequence: { groupOrder: 1 },
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['suites/**/*.test.ts'],
          globalSetup: ['src/harness/global-setup.ts'],
          // The suites keep no module state, so files may share a worker's modules: the spec and the
          // catalog are compiled once per worker instead of once per file.
          pool: 'threads',
          isolate: false,
          sequence: { groupOrder: 2 },
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
