import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { moduleCacheOptions, suiteProject } from './src/harness/suite-project.ts';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * The verdict files that take longest, longest first (seconds of test time in CI's last fresh-clone run,
 * scaled by what the changes since measured: bench/results.md). vitest starts the longest files first once
 * its cache knows their durations; a clean clone (CI) has no cache, and vitest then starts the largest
 * files first, which put the two slowest (short files driving many runs) at the end, where one worker ran
 * them alone while the other sat idle.
 */
const SLOWEST_FIRST: readonly string[] = [
  'test/verdicts/valid-variants.test.ts',
  'test/verdicts/fault-sensitivity.test.ts',
  'test/verdicts/cli/action.test.ts',
  'test/verdicts/matrix.test.ts',
  'test/verdicts/plans.test.ts',
  'test/verdicts/interruption.test.ts',
  'test/verdicts/rejudge.test.ts',
  'test/verdicts/keyless-forgeries-merged.test.ts',
  'test/verdicts/cli/key-redaction.test.ts',
  'test/verdicts/rate-windows.test.ts',
  'test/verdicts/cli/shard-balance-table.test.ts',
  'test/package/action-and-package.test.ts',
  'test/verdicts/cli/certification.test.ts',
  'test/verdicts/hostile-targets.test.ts',
  'test/verdicts/degraded-targets.test.ts',
  'test/package/install-tarball.test.ts',
  'test/package/git-install.test.ts',
  'test/verdicts/cli/shards.test.ts',
];

/** vitest's order, except in a project the cache has never timed: there SLOWEST_FIRST's files start first, in its order. */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const pathOf = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId).split('\\').join('/');
    const timed = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${pathOf(spec)}`) !== undefined;
    const rank = (spec: TestSpecification) => {
      const at = SLOWEST_FIRST.indexOf(pathOf(spec));
      return at === -1 ? SLOWEST_FIRST.length : at;
    };
    // super.sort keeps each project's files together; within an untimed project, a stable sort by rank.
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    return projects.flatMap((name) => {
      const own = sorted.filter((spec) => spec.project.name === name);
      return own.some(timed) ? own : [...own].sort((a, b) => rank(a) - rank(b));
    });
  }
}

// Three projects: `unit` is the project's own tests, in process (npm test, two minutes at most);
// `verdicts` everything that drives whole CLI runs, against faulty and valid servers or as a user would
// (npm run test:verdicts; .ci/run runs both); `conformance` is the product, the suites run against a
// target (npm run conformance).
export default defineConfig({
  test: {
    // A clean clone has no timings: the slowest verdict files start first all the same.
    sequence: { sequencer: SlowFirstSequencer },
    experimental: moduleCacheOptions(ROOT),
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
          // Most whole-CLI runs start the compiled package: dist/ is compiled again when a source is newer.
          globalSetup: ['test/verdicts/support/compiled-package.ts'],
          // Projects with different worker counts run as separate groups when several are asked for at once.
          sequence: { groupOrder: 1 },
          // vitest's default on two cores is one worker, which ran the files one after another: many wait on
          // a clock (rate windows, hangs, deadlines, signals) or on npm rather than on the CPU.
          maxWorkers: 2,
          fileParallelism: true,
          testTimeout: 600_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // The project's options are the CLI's too (src/harness/suite-project.ts).
          ...suiteProject(),
          globalSetup: ['src/harness/global-setup.ts'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
