import { existsSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { loadCatalog } from '../catalog/catalog.ts';
import { createContract } from '../contract/index.ts';
import type { Config } from '../config/load-config.ts';
import type { HarnessError } from '../errors.ts';
import {
  type ConformanceReport,
  ConformanceReporter,
  type ConformanceReporterOptions,
  type Deviation,
  loadExpectedDeviations,
  BASELINE_DAYS,
  renderBaseline,
  updatedBaseline,
  HAR_FILE,
  REPORT_FILES,
  writeHar,
  writeReports,
} from '../report/index.ts';
import { shownText } from '../text/console-text.ts';
import { writeCiOutput } from './ci-output.ts';
import { type GateDecision, gateDecision } from './gate-reason.ts';
import { formatSummary } from './console-summary.ts';
import { writeExtraOutputs } from './outputs.ts';
import { type RunOutcome, type RunSetup, incompleteReport } from './run-facts.ts';

/** The reporter of a run or of a merge: what differs is where the run's facts and judgement come from. */
export function reporterFor(
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

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function finish(
  setup: RunSetup,
  report: ConformanceReport,
  exchanges: ConformanceReporter['exchanges'],
  log: (line: string) => void,
): Promise<RunOutcome> {
  // The exchange log beside the reports, so `rejudge <report-dir>` can re-judge the run from it.
  const harPath = join(setup.config.reportDir, HAR_FILE);
  writeHar(harPath, exchanges, report.run.suiteVersion);
  const files = [
    ...Object.values(REPORT_FILES).map((f) => join(setup.config.reportDir, f)),
    ...writeExtraOutputs(report, setup.config.reportDir, setup.config.outputs),
  ];
  const { decision, baselineLine } = updateBaseline(setup, report);
  if (setup.config.certifyDir) {
    // Loaded only to certify (see runConformance).
    const { keyId, loadPrivateKey, writeCertificationBundle } = await import('../certificate/index.ts');
    const signKey = setup.config.signKeyFile ? loadPrivateKey(setup.config.signKeyFile) : undefined;
    const { implementation, implementationDigest, force } = setup.config;
    const manifest = writeCertificationBundle(report, exchanges, setup.config.certifyDir, {
      ...(implementation ? { implementation } : {}),
      ...(implementationDigest ? { implementationDigest } : {}),
      ...(signKey ? { signKey } : {}),
      force,
    });
    files.push(setup.config.certifyDir);
    log(formatSummary(report, files.map(shortPath), decision));
    log(`Badge: ${manifest.badge.markdown} (${manifest.badge.file} in the bundle)`);
    // Who signed, in the words a certifier pins: the key's fingerprint.
    if (signKey)
      log(
        `Signed by key sha256:${keyId(signKey)}; check it with: npx animal-store-conformance verify ${shortPath(setup.config.certifyDir)} --signer ${keyId(signKey)}`,
      );
  } else {
    log(formatSummary(report, files.map(shortPath), decision));
  }
  if (baselineLine) log(baselineLine);
  writeCiOutput(report, process.env, log, undefined, decision);
  return { exitCode: decision.exitCode === 0 ? 0 : report.verdict.exitCode, report };
}

/**
 * --update-baseline: the baseline written from this run's failures (new entries expire in BASELINE_DAYS).
 * Writing it was the run's purpose, so a run whose only problem was its failures exits 0 and says so; one
 * that could not complete still exits 2.
 */
function updateBaseline(setup: RunSetup, report: ConformanceReport): { decision: GateDecision; baselineLine?: string } {
  const decision = gateDecision(report);
  if (!setup.config.updateBaseline || !setup.config.baseline) return { decision };
  const baselinePath = setup.config.baseline;
  const previous = existsSync(baselinePath) ? loadExpectedDeviations(baselinePath) : [];
  const entries = updatedBaseline(previous, report.requirements, report.run.startedAt.slice(0, 10));
  writeFileSync(baselinePath, renderBaseline(entries));
  const written = `${plural(entries.length, 'known failure')} written to ${shortPath(baselinePath)}`;
  const baselineLine = `Baseline: ${written} (a new entry expires in ${BASELINE_DAYS} days: give each a reason and the date you mean)`;
  if (decision.exitCode !== 1) return { decision, baselineLine };
  return { decision: { gate: 'pass', exitCode: 0, reason: `--update-baseline wrote the baseline (${written}); the next run is gated with it` }, baselineLine };
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

export function writeIncomplete(
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
  // On GitHub an INCOMPLETE start says why where a reader looks first: the job summary and an annotation.
  writeCiOutput(report, process.env, log);
  return report;
}

/** Arguments that do not parse: an INCOMPLETE report in the directory asked for, saying what was wrong. */
export function writeRejectedRun(problem: HarnessError, reportDir: string, log: (line: string) => void): ConformanceReport {
  return writeIncomplete({ catalog: loadCatalog(), contract: createContract(), config: undefined, startedAt: new Date() }, problem, resolve(reportDir), log);
}
