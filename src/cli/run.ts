import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest, type Vitest } from 'vitest/node';
import { type Catalog, loadCatalog } from '../catalog/catalog.ts';
import { type Config, loadConfig } from '../config/load-config.ts';
import { reportDirWithoutConfig } from '../config/report-dir.ts';
import { createContract } from '../contract/index.ts';
import { bypassDerivedCache } from '../text/derived-cache.ts';
import { HarnessError, isHarnessError } from '../errors.ts';
import { type PreparedRun, prepareRun } from '../harness/run-context.ts';
import { sourcesOf } from '../harness/run-sources.ts';
import { type Deviation, loadExpectedDeviations, writeShardRecord, shardRecordOf } from '../report/index.ts';
import { type CliArgs } from './args.ts';
import { checkSelection } from '../config/requirement-selection.ts';
import { shownText } from '../text/console-text.ts';
import { PACKAGE_ROOT } from './paths.ts';
import { compiledSourceOptions, moduleCacheOptions, suiteProject } from '../harness/suite-project.ts';
import { embeddedWorkersOverride, fileSchedule } from './sequencer.ts';
import { checkKnownIds } from './known-ids.ts';
import { ProgressReporter, progressHeader } from './progress.ts';
import { withBalancedShards } from './shard-balance.ts';
import { suiteFilesFor, suiteInventory } from './suite-files.ts';
import { finish, reporterFor, writeIncomplete } from './finish-run.ts';
import { type Interruption, handleInterruption } from './interruption.ts';
import { mergeShards } from './merge-shards.ts';
import { type RunOutcome, type RunSetup, runInfo } from './run-facts.ts';
import { budgetV8ForShortRun } from './v8-budget.ts';
import type { EarlyWorkers } from '../harness/early-workers.ts';

export type { RunOutcome } from './run-facts.ts';
export { writeRejectedRun } from './finish-run.ts';

/**
 * One conformance run from parsed arguments to written reports. Every failure becomes exit 2 with an
 * INCOMPLETE report; only a suite whose own spec or catalog does not load throws (there is nothing to
 * write a report with), and main turns that into exit 2 as well.
 */
export async function runConformance(args: CliArgs, log: (line: string) => void, err: (line: string) => void = log, early?: EarlyWorkers): Promise<RunOutcome> {
  const startedAt = new Date();
  let catalog = loadCatalog();
  let contract = createContract();
  let config: Config | undefined;
  let restoreCache = () => {};
  try {
    config = loadConfig({ flags: args.flags, merging: args.mergeReports !== undefined });
    // What decides a certificate or a merge is read afresh from the suite's own files (src/text/derived-cache.ts).
    if (config.certifyDir !== undefined || args.mergeReports !== undefined) {
      restoreCache = bypassDerivedCache();
      catalog = loadCatalog();
      contract = createContract();
    }
    for (const warning of config.warnings) err(`warning: ${warning}`);
    checkSelection(config.only, catalog);
    const deviations = knownFailures(config, catalog);
    if (config.signKeyFile !== undefined || config.certifyDir !== undefined) {
      // Loaded only to certify: its module graph (rejudging, the generated families) is tens of
      // milliseconds of every run's start-up otherwise.
      const { checkBundleDir, loadPrivateKey, prepareBundleDir } = await import('../certificate/index.ts');
      // A key that does not load is a configuration error before the run, not after it.
      if (config.signKeyFile) loadPrivateKey(config.signKeyFile);
      // Before any request: a non-empty bundle directory is refused, or with --force emptied now, so no old bundle outlives a failed run.
      if (config.certifyDir) (config.force ? prepareBundleDir : checkBundleDir)(config.certifyDir, config.force);
    }
    const setup = { config, catalog, contract, deviations, startedAt };
    return args.mergeReports ? await mergeShards(setup, args.mergeReports, log) : await runSuites(setup, log, early);
  } catch (error) {
    const problem = isHarnessError(error) ? error : new HarnessError('ERR_INTERNAL', String((error as Error)?.message ?? error));
    err(`animal-store-conformance: ${shownText(problem.message)}`);
    // A rejected configuration still names where reports go, when it can.
    const reportDir = config?.reportDir ?? reportDirWithoutConfig(args.flags.reportDir);
    return { exitCode: 2, report: writeIncomplete({ catalog, contract, config, startedAt }, problem, reportDir, err) };
  } finally {
    restoreCache();
    await early?.dispose();
  }
}

async function runSuites(setup: RunSetup, log: (line: string) => void, early: EarlyWorkers | undefined): Promise<RunOutcome> {
  let vitest: Vitest | undefined;
  const interruption = handleInterruption(() => vitest, log);
  try {
    const prepared = await prepareRun(setup.config, setup.contract);
    try {
      return await runVitest(setup, prepared, interruption, (created) => (vitest = created), log, early);
    } finally {
      await vitest?.close();
      await prepared.dispose();
    }
  } finally {
    interruption.dispose();
  }
}

async function runVitest(
  setup: RunSetup,
  prepared: PreparedRun,
  interruption: Interruption,
  created: (vitest: Vitest) => void,
  log: (line: string) => void,
  early: EarlyWorkers | undefined,
): Promise<RunOutcome> {
  const { config } = setup;
  let deadlineHit = false;
  let stoppedAt: string | undefined;
  // Filled in once vitest is created: --fail-fast cancels the run through it.
  const running: { vitest?: Vitest } = {};
  const limit = `${Math.round(config.maxDurationMs / 1000)} s`;
  const reporter = reporterFor(setup, {
    runInfo: () => runInfo(setup, prepared.context.baseUrl, prepared.context.embedded),
    strict: config.strict,
    deviations: setup.deviations,
    // A shard runs the files its share holds: only a whole run can miss one.
    ...(config.shard ? {} : { inventory: suiteInventory(config.only, setup.catalog, PACKAGE_ROOT) }),
    endedBy: () => {
      if (deadlineHit) return { code: 'ERR_DEADLINE', message: `the run reached its --max-duration of ${limit} before every test had run` };
      if (stoppedAt)
        return { code: 'ERR_FAIL_FAST', message: `the run stopped at the first failure that decides the verdict (${stoppedAt}); the rest did not run` };
      return undefined;
    },
    ...(config.failFast
      ? {
          onDecidingFailure: (requirementId: string) => {
            stoppedAt = requirementId;
            log(`--fail-fast: ${requirementId} failed; stopping the run`);
            void running.vitest?.cancelCurrentRun('test-failure');
          },
        }
      : {}),
  });
  const progress = startProgress(config, prepared);
  const workers = embeddedWorkersOverride(process.env.CONFORMANCE_EMBEDDED_WORKERS);
  const schedule = fileSchedule({ embedded: prepared.context.embedded, referenceFaults: config.referenceFaults }, undefined, workers);
  const shardBlob = config.shard ? join(config.reportDir, 'blob', `blob-${config.shard.replace('/', '-')}.json`) : undefined;
  const compiled = compiledSourceOptions(PACKAGE_ROOT, fileURLToPath(import.meta.url));
  budgetV8ForShortRun();
  // The conformance project's options inline, not vitest.config.ts: the run provides what its globalSetup would.
  const vitest = await createVitest(
    'test',
    {
      root: PACKAGE_ROOT,
      config: false,
      ...suiteProject(),
      ...(early ? { pool: early.pool() } : {}),
      server: compiled.server,
      experimental: moduleCacheOptions(PACKAGE_ROOT),
      watch: false,
      passWithNoTests: true,
      shard: config.shard,
      fileParallelism: schedule.fileParallelism,
      maxWorkers: schedule.maxWorkers,
      sequence: { sequencer: withBalancedShards(schedule.sequencer, config.profile) },
      reporters: shardBlob ? [reporter, progress, ['blob', { outputFile: shardBlob }]] : [reporter, progress],
    },
    compiled.vite,
  );
  running.vitest = vitest;
  created(vitest);
  interruption.takeOverFromVitest();
  vitest.provide('conformanceRun', { ...prepared.context, liveProgress: progress.live });
  vitest.provide('conformanceSources', sourcesOf(setup.contract, setup.catalog));
  // The run deadline: the tests still running are cancelled and the reports say what was reached.
  const deadline = setTimeout(
    () => {
      deadlineHit = true;
      log(`--max-duration (${limit}) reached: stopping the run and writing the reports`);
      void vitest.cancelCurrentRun('keyboard-input');
    },
    Math.max(0, prepared.context.deadline - Date.now()),
  );
  deadline.unref();
  // Interrupted while preparing: no test starts, and the report says the run was interrupted.
  try {
    if (!interruption.interrupted) await vitest.start(suiteFilesFor(config.only, setup.catalog, PACKAGE_ROOT));
  } finally {
    clearTimeout(deadline);
  }
  const result = reporter.result;
  if (!result) {
    throw new HarnessError(
      'ERR_ABORTED',
      interruption.interrupted ? 'the run was interrupted before its tests started' : 'the run ended before any report was made',
    );
  }
  if (shardBlob)
    writeShardRecord(
      shardBlob,
      shardRecordOf(result, setup.deviations, { faults: config.referenceFaults, variants: config.referenceVariants }),
      config.shardKey,
    );
  return finish(setup, result, reporter.exchanges, log);
}

/** The header on stderr before any test runs, and the reporter that shows the run's progress there. */
function startProgress(config: Config, prepared: PreparedRun): ProgressReporter {
  const run = { context: prepared.context, maxDurationMs: config.maxDurationMs, ...(config.shard ? { shard: config.shard } : {}), only: config.only };
  const write = (text: string) => void process.stderr.write(text);
  write(`${progressHeader(run)}\n`);
  return new ProgressReporter({ run, write, tty: process.stderr.isTTY === true && !process.env.CI, quiet: config.quiet });
}

/** The expected deviations and the baseline: one format, one list (an id in both is an error). */
function knownFailures(config: Config, catalog: Catalog): Deviation[] {
  const declared = config.expectedDeviations ? loadExpectedDeviations(config.expectedDeviations) : [];
  checkKnownIds(
    declared.map((d) => d.id),
    catalog,
    '--expected-deviations',
  );
  // A shard sees only its own files' failures: its update would drop every other shard's entries.
  if (config.updateBaseline && config.shard)
    throw new HarnessError(
      'ERR_CONFIG',
      '--update-baseline cannot be given to one shard: update it from the merge (--merge-reports <dir> --baseline <file> --update-baseline)',
    );
  // --update-baseline may create the file: a baseline that does not exist yet is empty.
  const baseline =
    config.baseline && (existsSync(config.baseline) || !config.updateBaseline) ? loadExpectedDeviations(config.baseline, 'the baseline (--baseline)') : [];
  checkKnownIds(
    baseline.map((b) => b.id),
    catalog,
    '--baseline',
  );
  const twice = baseline.filter((b) => declared.some((d) => d.id === b.id)).map((b) => b.id);
  if (twice.length > 0) throw new HarnessError('ERR_CONFIG', `${twice.join(', ')} listed both in --expected-deviations and in --baseline: keep one`);
  return [...declared, ...baseline.map((entry) => ({ ...entry, source: 'baseline' as const }))];
}
