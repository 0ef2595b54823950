import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import type { ConformanceMeta } from './test-meta.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Exchange } from '../client/exchange.ts';
import type { OperationInfo } from '../contract/index.ts';
import { type ReportInput, buildReport } from './build-report.ts';
import { reportContradictions } from './report-consistency.ts';
import { failingVerdict } from './requirement-verdict.ts';
import type { ConformanceReport, Deviation, HarnessProblem } from './report-types.ts';
import type { RunInfo } from './run-info.ts';
import { type SuiteFile, collectRun } from './test-outcomes.ts';
import { collectExchanges } from './traffic.ts';
import { writeReports } from './write-reports.ts';

export interface ConformanceReporterOptions {
  /** A function is called when the run ends, so endedAt is the real end. */
  runInfo: RunInfo | (() => RunInfo);
  catalog: Catalog;
  reportDir: string;
  strict: boolean;
  expectedDeviations?: readonly Deviation[];
  /** The spec's operations for the coverage matrix; read from spec/openapi.yaml when absent. */
  operations?: readonly OperationInfo[];
  /** Why the run was cut short, when the CLI ended it (the run deadline): replaces "interrupted". */
  endedBy?: () => { code: string; message: string } | undefined;
  /**
   * Called once, with the requirement, when a test fails in a way that makes the target not conformant (a
   * MUST, or a SHOULD with strict) and no expected deviation names the requirement: --fail-fast stops there.
   */
  onDecidingFailure?: (requirementId: string) => void;
  /** Called with the report once the files are written (the CLI maps it to the exit code). */
  onResult?: (report: ConformanceReport) => void;
  /** The suite files the run was to run: one that never started leaves its requirements untested. */
  inventory?: readonly SuiteFile[];
  /**
   * A merge: what the shards recorded themselves. Their run problems (an interruption, a deadline, a
   * harness error) make the merged run incomplete as they made the shard; their not-run tests stay so.
   */
  shards?: { problems: readonly HarnessProblem[]; notRunTestIds: ReadonlySet<string> };
}

/**
 * The vitest reporter of the conformance project. It works in onTestRunEnd only: it turns the reported
 * tests into a ConformanceReport and writes conformance.html, conformance.json and junit.xml on every
 * run, including interrupted runs, runs with unhandled errors, and runs whose global setup failed.
 */
export class ConformanceReporter implements Reporter {
  readonly #options: ConformanceReporterOptions;
  #result: ConformanceReport | undefined;
  #exchanges: Exchange[] = [];
  #decided = false;

  constructor(options: ConformanceReporterOptions) {
    this.#options = options;
  }

  /** The last run's report; undefined until a run has ended. */
  get result(): ConformanceReport | undefined {
    return this.#result;
  }

  /** Every exchange of the last run, for the certification bundle's HAR. */
  get exchanges(): readonly Exchange[] {
    return this.#exchanges;
  }

  onTestCaseResult(testCase: TestCase): void {
    const onDecidingFailure = this.#options.onDecidingFailure;
    if (!onDecidingFailure || this.#decided || testCase.result().state !== 'failed') return;
    const meta = (testCase.meta() as { conformance?: ConformanceMeta }).conformance;
    if (meta?.failure?.kind !== 'conformance' || failingVerdict(meta.level, this.#options.strict) !== 'fail') return;
    if (this.#options.expectedDeviations?.some((deviation) => deviation.id === meta.requirementId)) return;
    this.#decided = true;
    onDecidingFailure(meta.requirementId);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    const options = this.#options;
    this.#decided = false;
    const collected = collectRun(testModules, unhandledErrors, reason, {
      inventory: options.inventory,
      notRunTestIds: options.shards?.notRunTestIds,
      problems: options.shards?.problems,
    });
    const endedBy = options.endedBy?.();
    if (endedBy) collected.harnessErrors = [endedBy, ...collected.harnessErrors.filter((p) => p.code !== 'ERR_ABORTED')];
    const runInfo = typeof options.runInfo === 'function' ? options.runInfo() : options.runInfo;
    const report = consistentReport({
      runInfo,
      catalog: options.catalog,
      tests: collected.tests,
      harnessErrors: collected.harnessErrors,
      strict: options.strict,
      expectedDeviations: options.expectedDeviations,
      operations: options.operations,
    });
    this.#result = report;
    this.#exchanges = collectExchanges(collected.tests);
    writeReports(report, options.reportDir);
    options.onResult?.(report);
  }
}

/**
 * The report, checked against its schema and the verdict rules before anything is written: a report
 * that contradicts itself is the suite's bug, and it makes the run INCOMPLETE with the contradictions
 * named, never a verdict no one can trust.
 */
export function consistentReport(input: ReportInput): ConformanceReport {
  const report = buildReport(input);
  const contradictions = reportContradictions(report);
  if (contradictions.length === 0) return report;
  const shown = contradictions.slice(0, 5).join('; ');
  const more = contradictions.length > 5 ? ` and ${contradictions.length - 5} more` : '';
  const problem = { code: 'ERR_INTERNAL', message: `the report contradicts itself (a suite bug: report it): ${shown}${more}` };
  return buildReport({ ...input, harnessErrors: [...input.harnessErrors, problem] });
}
