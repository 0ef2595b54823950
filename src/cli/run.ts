import { existsSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createVitest, type Vitest } from 'vitest/node';
import { type Catalog, loadCatalog } from '../catalog/catalog.ts';
import { CONFIG_DEFAULTS, type Config, loadConfig, planLimitsOf, planOf } from '../config.ts';
import { type Contract, createContract } from '../contract/index.ts';
import { HarnessError, isHarnessError } from '../errors.ts';
import { type PreparedRun, prepareRun } from '../harness/run-context.ts';
import { sourcesOf } from '../harness/sources.ts';
import {
  type ConformanceReport,
  ConformanceReporter,
  type ConformanceReporterOptions,
  type Deviation,
  type RunInfo,
  buildReport,
  loadExpectedDeviations,
  renderBaseline,
  updatedBaseline,
  readShardSet,
  REPORT_FILES,
  writeReports,
  writeShardRecord,
  shardRecordOf,
  mergeDeviations,
  certificationGradeProblems,
  mergeEvidenceProblems,
} from '../report/index.ts';
import { checkBundleDir, keyId, loadPrivateKey, prepareBundleDir, suiteIdentity, writeCertificationBundle } from '../certificate/index.ts';
import { type CliArgs, reproduceCommand } from './args.ts';
import { shownText } from '../console-text.ts';
import { writeCiOutput } from './ci-output.ts';
import { formatSummary } from './console-summary.ts';
import { writeExtraOutputs } from './outputs.ts';
import { PACKAGE_ROOT, VITEST_CONFIG, suiteVersion } from './paths.ts';
import { fileSchedule } from './sequencer.ts';
import { checkKnownIds } from './known-ids.ts';
import { ProgressReporter, progressHeader } from './progress.ts';
import { withBalancedShards } from './shard-balance.ts';
import { suiteFilesFor, suiteInventory } from './suite-files.ts';

export interface RunOutcome {
  exitCode: 0 | 1 | 2;
  report: ConformanceReport;
}

interface RunSetup {
  config: Config;
  catalog: Catalog;
  contract: Contract;
  deviations: Deviation[];
  startedAt: Date;
}

/**
 * One conformance run from parsed arguments to written reports. Every failure becomes exit 2 with an
 * INCOMPLETE report; only a suite whose own spec or catalog does not load throws (there is nothing to
 * write a report with), and main turns that into exit 2 as well.
 */
export async function runConformance(args: CliArgs, log: (line: string) => void, err: (line: string) => void = log): Promise<RunOutcome> {
  const startedAt = new Date();
  const catalog = loadCatalog();
  const contract = createContract();
  let config: Config | undefined;
  try {
    config = loadConfig({ flags: args.flags, merging: args.mergeReports !== undefined });
    for (const warning of config.warnings) err(`warning: ${warning}`);
    checkSelection(config.only, catalog);
    const deviations = knownFailures(config, catalog);
    // A key that does not load is a configuration error before the run, not after it.
    if (config.signKeyFile) loadPrivateKey(config.signKeyFile);
    // Before any request: a non-empty bundle directory is refused, or with --force emptied now, so no old bundle outlives a failed run.
    if (config.certifyDir) (config.force ? prepareBundleDir : checkBundleDir)(config.certifyDir, config.force);
    const setup = { config, catalog, contract, deviations, startedAt };
    return args.mergeReports ? await mergeShards(setup, args.mergeReports, log) : await runSuites(setup, log);
  } catch (error) {
    const problem = isHarnessError(error) ? error : new HarnessError('ERR_INTERNAL', String((error as Error)?.message ?? error));
    err(`animal-store-conformance: ${shownText(problem.message)}`);
    // A rejected configuration still names where reports go, when it can.
    const reportDir = config?.reportDir ?? resolve(args.flags.reportDir ?? process.env.ASC_REPORT_DIR ?? CONFIG_DEFAULTS.reportDir);
    return { exitCode: 2, report: writeIncomplete({ catalog, contract, config, startedAt }, problem, reportDir, err) };
  }
}

/** Arguments that do not parse: an INCOMPLETE report in the directory asked for, saying what was wrong. */
export function writeRejectedRun(problem: HarnessError, reportDir: string, log: (line: string) => void): ConformanceReport {
  return writeIncomplete({ catalog: loadCatalog(), contract: createContract(), config: undefined, startedAt: new Date() }, problem, resolve(reportDir), log);
}

function writeIncomplete(
  setup: Omit<RunSetup, 'config' | 'deviations'> & { config: Config | undefined },
  problem: HarnessError,
  reportDir: string,
  log: (line: string) => void,
): ConformanceReport {
  const report = incompleteReport(setup, problem);
  const files = safeWrite(report, reportDir, log);
  if (files.length > 0 && setup.config) files.push(...writeExtraOutputs(report, reportDir, setup.config.outputs));
  // One line, so a CI log shows at once that the reports on disk are this failed start's, not an older run's.
  if (files.length > 0) log(`INCOMPLETE (exit 2): the reports say why: ${files.map(shortPath).join(', ')}`);
  return report;
}

async function runSuites(setup: RunSetup, log: (line: string) => void): Promise<RunOutcome> {
  let vitest: Vitest | undefined;
  const interruption = handleInterruption(() => vitest, log);
  try {
    const prepared = await prepareRun(setup.config, setup.contract);
    try {
      return await runVitest(setup, prepared, interruption, (created) => (vitest = created), log);
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
  const schedule = fileSchedule({ embedded: prepared.context.embedded, referenceFaults: config.referenceFaults });
  const shardBlob = config.shard ? join(config.reportDir, 'blob', `blob-${config.shard.replace('/', '-')}.json`) : undefined;
  const vitest = await createVitest('test', {
    root: PACKAGE_ROOT,
    config: VITEST_CONFIG,
    project: 'conformance',
    watch: false,
    passWithNoTests: true,
    shard: config.shard,
    fileParallelism: schedule.fileParallelism,
    maxWorkers: schedule.maxWorkers,
    sequence: { sequencer: withBalancedShards(schedule.sequencer, config.profile) },
    reporters: shardBlob ? [reporter, progress, ['blob', { outputFile: shardBlob }]] : [reporter, progress],
  });
  running.vitest = vitest;
  created(vitest);
  interruption.takeOverFromVitest();
  vitest.provide('conformanceRun', prepared.context);
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
  if (shardBlob) writeShardRecord(shardBlob, shardRecordOf(result, setup.deviations));
  return finish(setup, result, reporter.exchanges, log);
}

/** The header on stderr before any test runs, and the reporter that shows the run's progress there. */
function startProgress(config: Config, prepared: PreparedRun): ProgressReporter {
  const run = { context: prepared.context, maxDurationMs: config.maxDurationMs, ...(config.shard ? { shard: config.shard } : {}) };
  const write = (text: string) => void process.stderr.write(text);
  write(`${progressHeader(run)}\n`);
  return new ProgressReporter({ run, write, tty: process.stderr.isTTY === true && !process.env.CI, quiet: config.quiet });
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

interface Interruption {
  readonly interrupted: boolean;
  /** Removes the signal handlers vitest registered (it exits at once on a signal). */
  takeOverFromVitest(): void;
  dispose(): void;
}

/**
 * Ctrl-C or SIGTERM (a CI job's time-out) ends the run early but still writes the reports, with the
 * tests that finished and an ERR_ABORTED saying the run was interrupted. vitest's own handlers would
 * exit at once, so they are removed once vitest has registered them. A second signal exits at once.
 */
function handleInterruption(current: () => Vitest | undefined, log: (line: string) => void): Interruption {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(signal === 'SIGINT' ? 130 : 143);
    interrupted = true;
    log(`${signal}: stopping the run and writing the reports (send it again to exit at once)`);
    void current()?.cancelCurrentRun('keyboard-input');
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return {
    get interrupted() {
      return interrupted;
    },
    takeOverFromVitest() {
      for (const signal of SIGNALS) {
        for (const listener of process.listeners(signal)) {
          if (listener !== onSignal && !before.get(signal)?.has(listener)) process.off(signal, listener);
        }
      }
    },
    dispose() {
      for (const signal of SIGNALS) process.off(signal, onSignal);
    },
  };
}

/**
 * Merges blob reports of sharded runs (vitest --merge-reports) into one set of reports. What was run
 * (target, profile, seed, options, expected deviations) comes from the shards' records, never from the
 * merge command, and shards that were not one run are refused (ERR_SHARD_MISMATCH). A --baseline given to
 * the merge is applied, or refused when the shards were judged with another (mergeDeviations).
 */
async function mergeShards(setup: RunSetup, blobDir: string, log: (line: string) => void): Promise<RunOutcome> {
  const shards = readShardSet(blobDir);
  try {
    if (setup.config.certifyDir) checkCertifiableMerge(shards.run, setup.config);
    const deviations = mergeDeviations(shards.deviations, setup.deviations, {
      declared: setup.config.expectedDeviations !== undefined,
      baseline: setup.config.baseline !== undefined,
    });
    // Completeness and strictness are the gate's policy: the merge command may set them too (a matrix's
    // merge job is where the gate is).
    const run = {
      ...shards.run,
      requireComplete: shards.run.requireComplete === true || setup.config.requireComplete,
      strict: shards.run.strict || setup.config.strict,
    };
    const reporter = reporterFor(setup, {
      runInfo: () => run,
      strict: run.strict,
      deviations,
      // What the shards recorded themselves, and every file the whole run was to run.
      shards: { problems: shards.problems, notRunTestIds: shards.notRunTestIds },
      inventory: suiteInventory(run.only ?? [], setup.catalog, PACKAGE_ROOT),
    });
    const vitest = await createVitest('test', {
      root: PACKAGE_ROOT,
      config: VITEST_CONFIG,
      watch: false,
      mergeReports: shards.blobDir,
      reporters: [reporter],
    });
    try {
      await vitest.mergeReports(shards.blobDir);
    } finally {
      await vitest.close();
    }
    const result = reporter.result;
    if (!result) throw new HarnessError('ERR_ABORTED', `no blob reports to merge in ${blobDir}`);
    const unproven = mergeEvidenceProblems(result, reporter.exchanges.length, shards.records);
    if (unproven.length > 0)
      throw new HarnessError(
        'ERR_SHARD_MISMATCH',
        `the shards do not prove what they say: ${unproven.slice(0, 5).join('; ')}${unproven.length > 5 ? ` and ${unproven.length - 5} more` : ''}`,
      );
    log(
      `Merged ${plural(shards.count, 'shard')} of one run: seed ${run.seed}, profile ${run.profile}, ${run.target.embedded ? 'the embedded reference' : run.target.url}`,
    );
    return finish(setup, result, reporter.exchanges, log);
  } finally {
    shards.dispose();
  }
}

/** A merge certifies only at the grade --certify asks of a run, and a digest names a remote artefact only. */
function checkCertifiableMerge(run: RunInfo, config: Config): void {
  const problems = certificationGradeProblems(run);
  if (config.implementationDigest && run.target.embedded)
    problems.push('--implementation-digest names an artefact, but the shards tested the embedded reference');
  if (problems.length > 0) throw new HarnessError('ERR_CONFIG', `--certify refuses this merge: ${problems.join('; ')}`);
}

/** The reporter of a run or of a merge: what differs is where the run's facts and judgement come from. */
function reporterFor(
  setup: RunSetup,
  run: Pick<ConformanceReporterOptions, 'runInfo' | 'strict' | 'endedBy' | 'onDecidingFailure' | 'inventory' | 'shards'> & { deviations: readonly Deviation[] },
): ConformanceReporter {
  const { deviations, ...options } = run;
  return new ConformanceReporter({
    ...options,
    catalog: setup.catalog,
    reportDir: setup.config.reportDir,
    expectedDeviations: deviations,
    operations: setup.contract.operations,
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function finish(setup: RunSetup, report: ConformanceReport, exchanges: ConformanceReporter['exchanges'], log: (line: string) => void): RunOutcome {
  const files = [
    ...Object.values(REPORT_FILES).map((f) => join(setup.config.reportDir, f)),
    ...writeExtraOutputs(report, setup.config.reportDir, setup.config.outputs),
  ];
  if (setup.config.certifyDir) {
    const signKey = setup.config.signKeyFile ? loadPrivateKey(setup.config.signKeyFile) : undefined;
    const { implementation, implementationDigest, force } = setup.config;
    const manifest = writeCertificationBundle(report, exchanges, setup.config.certifyDir, {
      ...(implementation ? { implementation } : {}),
      ...(implementationDigest ? { implementationDigest } : {}),
      ...(signKey ? { signKey } : {}),
      force,
    });
    files.push(setup.config.certifyDir);
    log(formatSummary(report, files.map(shortPath)));
    log(`Badge: ${manifest.badge.markdown} (${manifest.badge.file} in the bundle)`);
    // Who signed, in the words a certifier pins: the key's fingerprint.
    if (signKey)
      log(
        `Signed by key sha256:${keyId(signKey)}; check it with: npx animal-store-conformance verify ${shortPath(setup.config.certifyDir)} --signer ${keyId(signKey)}`,
      );
  } else {
    log(formatSummary(report, files.map(shortPath)));
  }
  if (setup.config.updateBaseline && setup.config.baseline) {
    const baselinePath = setup.config.baseline;
    const previous = existsSync(baselinePath) ? loadExpectedDeviations(baselinePath) : [];
    const entries = updatedBaseline(previous, report.requirements, report.run.startedAt.slice(0, 10));
    writeFileSync(baselinePath, renderBaseline(entries));
    log(`Baseline: ${entries.length} known failure${entries.length === 1 ? '' : 's'} written to ${shortPath(baselinePath)}`);
  }
  writeCiOutput(report, process.env, log);
  return { exitCode: report.verdict.exitCode, report };
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

/** --only names requirement ids or areas of the catalog: a typo would otherwise select nothing. */
function checkSelection(only: readonly string[], catalog: Catalog): void {
  const unknown = only.filter((s) => !catalog.has(s) && !(s in catalog.areas));
  if (unknown.length > 0) {
    throw new HarnessError('ERR_CONFIG', `--only names no requirement or area: ${unknown.join(', ')} (areas: ${Object.keys(catalog.areas).join(', ')})`);
  }
}

function runInfo(setup: RunSetup, targetUrl: string, embedded: boolean): RunInfo {
  const { config } = setup;
  return {
    suiteVersion: suiteVersion(),
    suiteIdentity: suiteIdentity(),
    specVersion: setup.contract.version,
    specSha256: setup.contract.sha256,
    target: { url: targetUrl, embedded },
    profile: config.profile,
    seed: config.seed,
    readOnly: config.readOnly,
    exhaust: config.exhaust,
    strict: config.strict,
    requireComplete: config.requireComplete,
    ...(planOf(config) ? { plan: planOf(config) } : {}),
    ...(planLimitsOf(config) ? { planLimits: planLimitsOf(config) } : {}),
    only: [...config.only],
    startedAt: setup.startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    nodeVersion: process.version,
    command: reproduceCommand(config),
    ...(config.shard ? { shard: config.shard } : {}),
    ...(runNetwork(config.network) ? { network: runNetwork(config.network) } : {}),
  };
}

/** What a report says of how the target was reached; nothing when it was reached directly with TLS verified. */
function runNetwork(network: Config['network']): RunInfo['network'] {
  if (network.headers.length === 0 && !network.proxy && !network.caCert && !network.insecure) return undefined;
  return {
    headers: network.headers.map(([name]) => name),
    ...(network.proxy ? { proxy: new URL(network.proxy).origin } : {}),
    ...(network.caCert ? { caCert: true } : {}),
    tlsVerified: !network.insecure,
  };
}

function incompleteReport(setup: Omit<RunSetup, 'config' | 'deviations'> & { config: Config | undefined }, problem: HarnessError): ConformanceReport {
  const { config } = setup;
  const info: RunInfo = config
    ? runInfo({ ...setup, config, deviations: [] }, config.target ?? 'embedded reference', !config.target)
    : {
        suiteVersion: suiteVersion(),
        specVersion: setup.contract.version,
        specSha256: setup.contract.sha256,
        target: { url: 'unknown (configuration rejected)', embedded: false },
        profile: CONFIG_DEFAULTS.remoteProfile,
        seed: 0,
        readOnly: CONFIG_DEFAULTS.readOnly,
        exhaust: CONFIG_DEFAULTS.exhaust,
        strict: CONFIG_DEFAULTS.strict,
        startedAt: setup.startedAt.toISOString(),
        endedAt: new Date().toISOString(),
        nodeVersion: process.version,
        command: 'npx animal-store-conformance --help',
      };
  return buildReport({
    runInfo: info,
    catalog: setup.catalog,
    tests: [],
    harnessErrors: [{ code: problem.code, message: problem.message }],
    strict: config?.strict ?? CONFIG_DEFAULTS.strict,
    operations: setup.contract.operations,
  });
}

function safeWrite(report: ConformanceReport, dir: string, log: (line: string) => void): string[] {
  try {
    return writeReports(report, dir);
  } catch (error) {
    log(`animal-store-conformance: could not write reports: ${shownText((error as Error).message)}`);
    return [];
  }
}

function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}
