import { basename } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';
import { createLedgerBudget } from '../client/budget.ts';
import { shownText } from '../text/console-text.ts';
import type { ConformanceMeta } from '../report/test-meta.ts';
import type { RunContext } from '../harness/run-context.ts';
import { weightOf } from './shard-balance.ts';

/** What the header and the progress lines say about the run. */
export interface ProgressRun {
  context: Pick<RunContext, 'baseUrl' | 'embedded' | 'profile' | 'plan' | 'planLimits' | 'budgetLimit' | 'ledgerPath' | 'seed'>;
  maxDurationMs: number;
  shard?: string;
  /** --only or ASC_ONLY: a narrowed run says so in its first line, wherever the narrowing came from. */
  only?: readonly string[];
}

export interface ProgressOptions {
  run: ProgressRun;
  /** Where progress goes (stderr: stdout keeps the summary). */
  write: (text: string) => void;
  /** A terminal: one line redrawn in place. Otherwise (CI, a pipe) one plain line per area as it finishes. */
  tty: boolean;
  /** --quiet: no area lines, no progress line (the header is still written). */
  quiet: boolean;
  now?: () => number;
}

/** The run's first line, before any test: what is tested, how, and what it may spend. */
export function progressHeader(run: ProgressRun): string {
  const { context } = run;
  const target = context.embedded ? `the embedded reference (${context.baseUrl})` : shownText(context.baseUrl, 200);
  const limits = context.planLimits ? ` (${context.planLimits.perMinute}/min, ${context.planLimits.perDay}/day)` : '';
  const plan = context.plan ? `${context.plan}${limits}` : 'not given (--plan)';
  const budget = context.budgetLimit === undefined ? 'no ceiling' : `${context.budgetLimit} requests`;
  const shard = run.shard ? `, shard ${run.shard}` : '';
  const only = run.only && run.only.length > 0 ? `, only ${shownText(run.only.join(','), 200)} (--only / ASC_ONLY)` : '';
  return `Testing ${target}: profile ${context.profile}, plan ${plan}, budget ${budget}, max duration ${clock(run.maxDurationMs)}, seed ${context.seed}${shard}${only}`;
}

/** One area (suite file) as it finished. */
export interface AreaDone {
  area: string;
  passed: number;
  failed: number;
  skipped: number;
  requests: number;
  durationMs: number;
}

export function areaLine(done: AreaDone, used: string, elapsedMs: number): string {
  const tests = `${done.passed} passed, ${done.failed} failed, ${done.skipped} skipped`;
  return `area ${done.area} done: ${tests}; ${plural(done.requests, 'request')} in ${seconds(done.durationMs)} (run: ${used}, ${clock(elapsedMs)} elapsed)`;
}

/** The terminal's one line: what runs now, what is spent, how long it has taken and may take. */
export interface LiveState {
  running: readonly string[];
  filesDone: number;
  filesTotal: number;
  /** The share of the run done: the finished files' expected requests of all the files' (0 to 1). */
  done: number;
  used: string;
  elapsedMs: number;
  waits: number;
}

export function liveLine(state: LiveState): string {
  const areas =
    state.running.length > 0
      ? state.running.join(', ')
      : state.filesDone === 0
        ? 'starting'
        : state.filesDone < state.filesTotal
          ? 'next area'
          : 'writing the reports';
  const estimate =
    state.done > 0 && state.done < 1 && state.filesDone < state.filesTotal ? `, ~${clock((state.elapsedMs * (1 - state.done)) / state.done)} left` : '';
  const waits = state.waits > 0 ? `; ${plural(state.waits, 'rate-limit wait')}` : '';
  return `[${state.filesDone}/${state.filesTotal} areas] ${areas} | ${state.used} | ${clock(state.elapsedMs)} elapsed${estimate}${waits}`;
}

/** How often the terminal line is redrawn while nothing else happens. */
const REDRAW_EVERY_MS = 1_000;
/** Erases the terminal line before it is drawn again. */
const CLEAR_LINE = '\r\x1b[K';

/**
 * Live progress of a run, a vitest reporter beside the conformance reporter. The estimate weighs each
 * file by the requests it is expected to send (the table shards are balanced on). Requests used are read
 * from the budget ledger the workers share (the one count of what was sent); a run without a ceiling
 * keeps no ledger, so there they are the finished tests' own exchanges.
 */
export class ProgressReporter implements Reporter {
  readonly #options: ProgressOptions;
  readonly #now: () => number;
  readonly #started: number;
  readonly #running = new Map<string, string>();
  #filesTotal = 0;
  #filesDone = 0;
  /** Expected requests of every file of the run, and of those finished: the estimate's basis. */
  #weightTotal = 0;
  #weightDone = 0;
  #counted = 0;
  #waits = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: ProgressOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#started = this.#now();
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#filesTotal = specifications.length;
    this.#weightTotal = specifications.reduce((sum, spec) => sum + this.#weightOf(spec.moduleId), 0);
    if (!this.live) return;
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), REDRAW_EVERY_MS);
    this.#timer.unref();
  }

  onTestModuleStart(testModule: TestModule): void {
    this.#running.set(testModule.moduleId, areaOf(testModule.moduleId));
    if (this.live) this.#draw();
  }

  onTestCaseResult(testCase: TestCase): void {
    const exchanges = metaOf(testCase)?.exchanges.filter((e) => !e.sharedFrom) ?? [];
    this.#counted += exchanges.length;
    this.#waits += exchanges.reduce((sum, e) => sum + (e.retries ?? 0), 0);
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.#running.delete(testModule.moduleId);
    this.#filesDone += 1;
    this.#weightDone += this.#weightOf(testModule.moduleId);
    if (this.#options.quiet) return;
    if (this.#options.tty) {
      this.#draw();
      return;
    }
    this.#options.write(`${areaLine(areaDone(testModule), this.#used(), this.#now() - this.#started)}\n`);
  }

  onTestRunEnd(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.live) this.#options.write(CLEAR_LINE);
  }

  /** A line redrawn in place: other lines written meanwhile must clear it first. */
  get live(): boolean {
    return this.#options.tty && !this.#options.quiet;
  }

  #draw(): void {
    const line = liveLine({
      running: [...this.#running.values()],
      filesDone: this.#filesDone,
      filesTotal: this.#filesTotal,
      done: this.#weightTotal > 0 ? this.#weightDone / this.#weightTotal : 0,
      used: this.#used(),
      elapsedMs: this.#now() - this.#started,
      waits: this.#waits,
    });
    const width = process.stderr.columns;
    this.#options.write(CLEAR_LINE + (width && line.length >= width ? `${line.slice(0, width - 2)}…` : line));
  }

  #weightOf(moduleId: string): number {
    return weightOf(moduleId, this.#options.run.context.profile);
  }

  #used(): string {
    const { budgetLimit, ledgerPath } = this.#options.run.context;
    if (budgetLimit === undefined) return `${plural(this.#counted, 'request')} sent`;
    return `${createLedgerBudget(ledgerPath, budgetLimit).used} of ${budgetLimit} requests`;
  }
}

function areaDone(testModule: TestModule): AreaDone {
  const done: AreaDone = { area: areaOf(testModule.moduleId), passed: 0, failed: 0, skipped: 0, requests: 0, durationMs: testModule.diagnostic().duration };
  for (const test of testModule.children.allTests()) {
    const state = test.result().state;
    if (state === 'passed') done.passed += 1;
    else if (state === 'failed') done.failed += 1;
    else done.skipped += 1;
    done.requests += metaOf(test)?.exchanges.filter((e) => !e.sharedFrom).length ?? 0;
  }
  return done;
}

function metaOf(testCase: TestCase): ConformanceMeta | undefined {
  return (testCase.meta() as { conformance?: ConformanceMeta }).conformance;
}

/** suites/auth.test.ts → auth. */
function areaOf(moduleId: string): string {
  return shownText(basename(moduleId).replace(/\.test\.ts$/, ''), 60);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** m:ss, or h:mm:ss from an hour. */
function clock(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
