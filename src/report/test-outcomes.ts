import type { SerializedError } from 'vitest';
import type { TestModule, TestRunEndReason } from 'vitest/node';
import { isHarnessErrorCode } from '../errors.ts';
import type { HarnessProblem, TestOutcome } from './report-types.ts';

/** vitest's view of a finished run, turned into plain data for buildReport. */
export interface CollectedRun {
  tests: TestOutcome[];
  harnessErrors: HarnessProblem[];
}

/** A suite file the run was to run, with the requirements it names (a superset of those it tests). */
export interface SuiteFile {
  /** Relative to the package root, as vitest names modules: `suites/auth.test.ts`. */
  file: string;
  requirementIds: readonly string[];
}

/** What the run knows besides vitest's tasks: which files it was to run, what its shards recorded. */
export interface RunExpectations {
  /** Every file the run was to run. A file no module reports did not run: its requirements cannot pass. */
  inventory?: readonly SuiteFile[];
  /** Tests a shard recorded as not run (a merge): coded by that state, whatever the blob says. */
  notRunTestIds?: ReadonlySet<string>;
  /** Problems known before vitest reported (a merge: each shard's own), listed first. */
  problems?: readonly HarnessProblem[];
}

const NOT_RUN_NOTE = 'did not run: the run ended first';

/**
 * Reads test outcomes and meta from vitest's reported tasks (also after --merge-reports of blob reports,
 * which keep task meta), and turns everything that kept tests from running into harness problems.
 */
export function collectRun(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError>,
  reason: TestRunEndReason,
  expectations: RunExpectations = {},
): CollectedRun {
  const tests: TestOutcome[] = [];
  const harnessErrors: HarnessProblem[] = [...(expectations.problems ?? [])];
  for (const module of testModules) {
    for (const error of module.errors()) {
      harnessErrors.push({ code: codeOf(error), message: `${module.relativeModuleId}: ${error.message}` });
    }
    for (const test of module.children.allTests()) {
      const result = test.result();
      const meta = test.meta().conformance;
      const outcome: TestOutcome = {
        id: test.id,
        name: test.fullName,
        file: module.relativeModuleId,
        state: result.state === 'pending' ? 'skipped' : result.state,
        durationMs: test.diagnostic()?.duration ?? 0,
        errors: (result.errors ?? []).map((e) => e.message),
      };
      if (meta) outcome.meta = meta;
      // Every skip of the harness carries a code; a test vitest skipped without one, or never started, was
      // cancelled by the run's end (the deadline, --fail-fast, an interruption): it did not run, which is not
      // a precondition the target failed to provide.
      const notRun = result.state === 'pending' || (result.state === 'skipped' && !meta?.skipCode) || expectations.notRunTestIds?.has(test.id) === true;
      if (notRun && result.state !== 'failed') {
        outcome.state = 'skipped';
        outcome.notRun = true;
        outcome.skipNote = NOT_RUN_NOTE;
      } else if (result.state === 'skipped' && result.note) outcome.skipNote = result.note;
      tests.push(outcome);
    }
  }
  for (const error of unhandledErrors) {
    harnessErrors.push({ code: codeOf(error), message: `unhandled error: ${error.message}` });
  }
  if (reason === 'interrupted') {
    harnessErrors.push({ code: 'ERR_ABORTED', message: 'the run was interrupted before every test had run' });
  }
  if (reason === 'failed' && testModules.length === 0 && harnessErrors.length === 0) {
    harnessErrors.push({
      code: 'ERR_INTERNAL',
      message: 'no test file ran: the global setup failed (target unreachable or bad configuration) or no suite matched; see the console output',
    });
  }
  const missing = missingFiles(testModules, expectations.inventory);
  tests.push(...missing.flatMap(notRunTests));
  if (missing.length > 0 && harnessErrors.length === 0) {
    const names = missing.map((m) => m.file).join(', ');
    harnessErrors.push({ code: 'ERR_INTERNAL', message: `${plural(missing.length, 'suite file')} never started although the run was to run it: ${names}` });
  }
  return { tests: numberExchangesOnce(tests), harnessErrors };
}

/**
 * Files of the inventory no module reports: the run ended before they started (or a shard never got to
 * them). When no file reported at all, the run's problem already says why nothing ran.
 */
function missingFiles(testModules: ReadonlyArray<TestModule>, inventory: readonly SuiteFile[] | undefined): SuiteFile[] {
  if (!inventory || testModules.length === 0) return [];
  const reported = new Set(testModules.map((m) => m.relativeModuleId));
  return inventory.filter((entry) => !reported.has(entry.file));
}

/** One not-run outcome per requirement a file that never started names: none of them may pass. */
function notRunTests(entry: SuiteFile): TestOutcome[] {
  return entry.requirementIds.map((id) => ({
    id: `not-run:${entry.file}:${id}`,
    name: `${id} the tests in ${entry.file}`,
    file: entry.file,
    state: 'skipped',
    notRun: true,
    skipNote: `did not run: the run ended before ${entry.file} started`,
    durationMs: 0,
    errors: [],
  }));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Numbers every exchange once for the whole run, in the order they were sent: a test file numbers its
 * own (so do the shards of a sharded run), and "#4" must name one request in a report. An exchange two
 * tests share keeps one number. Findings, failures, judgments and the checks the log cannot prove
 * (`unprovable`) that point at exchanges follow the new numbers.
 */
export function numberExchangesOnce(tests: readonly TestOutcome[]): TestOutcome[] {
  const key = (file: string, seq: number) => `${file}\u0000${seq}`;
  const seen = new Map<string, { file: string; seq: number; startedAt: number }>();
  for (const test of tests) {
    for (const exchange of test.meta?.exchanges ?? [])
      seen.set(key(test.file, exchange.seq), { file: test.file, seq: exchange.seq, startedAt: exchange.startedAt });
  }
  const order = [...seen.values()].sort((a, b) => a.startedAt - b.startedAt || a.file.localeCompare(b.file) || a.seq - b.seq);
  const numbers = new Map(order.map((e, i) => [key(e.file, e.seq), i + 1]));
  return tests.map((test) => {
    const meta = test.meta;
    if (!meta) return test;
    const renumber = (seq: number) => numbers.get(key(test.file, seq)) ?? seq;
    const failure = meta.failure?.exchangeSeqs ? { ...meta.failure, exchangeSeqs: meta.failure.exchangeSeqs.map(renumber) } : meta.failure;
    return {
      ...test,
      meta: {
        ...meta,
        // The file's own number is kept: the log shows each file's numbers run 1..n, so an exchange
        // dropped from a shard's blob leaves a gap the renumbering would otherwise close.
        exchanges: meta.exchanges.map((e) => ({ ...e, seq: renumber(e.seq), file: test.file, fileSeq: e.seq })),
        findings: meta.findings.map((f) => ({ ...f, exchangeSeq: renumber(f.exchangeSeq) })),
        ...(meta.unprovable ? { unprovable: meta.unprovable.map((u) => ({ ...u, exchangeSeq: renumber(u.exchangeSeq) })) } : {}),
        ...(failure ? { failure } : {}),
        ...(meta.skipCode === 'unprovable' && meta.skipReason !== undefined ? { skipReason: renumberCited(meta.skipReason, renumber) } : {}),
        ...(meta.judgments
          ? {
              judgments: meta.judgments.map((j) =>
                j.kind === 'status'
                  ? { ...j, exchange: renumber(j.exchange) }
                  : j.kind === 'rule'
                    ? { ...j, params: renumberSources(j.params, renumber), exchanges: j.exchanges.map(renumber) }
                    : { ...j, exchanges: j.exchanges.map(renumber) },
              ),
            }
          : {}),
      },
    };
  });
}

/**
 * Where an untested check's reason starts by citing the exchanges the log holds redacted, as
 * harness/unprovable.ts writes it ("the log holds #3, #8 redacted …"): only that citation, the suite's
 * own words, follows the new numbers; what comes after it may quote the target and is left as it is.
 */
const CITED = /^the log holds (#\d+(?:, #\d+)*) redacted/;

function renumberCited(reason: string, renumber: (seq: number) => number): string {
  const cited = CITED.exec(reason);
  if (!cited) return reason;
  const list = cited[1]!.split(', ').map((ref) => `#${renumber(Number(ref.slice(1)))}`);
  return `the log holds ${list.join(', ')} redacted${reason.slice(cited[0].length)}`;
}

/** A rule's params that name exchanges (idFrom, countFrom, sentFrom) follow the new numbers too. */
function renumberSources(params: Record<string, unknown>, renumber: (seq: number) => number): Record<string, unknown> {
  const { idFrom, countFrom, sentFrom } = params;
  return {
    ...params,
    ...(typeof idFrom === 'number' ? { idFrom: renumber(idFrom) } : {}),
    ...(typeof countFrom === 'number' ? { countFrom: renumber(countFrom) } : {}),
    ...(Array.isArray(sentFrom) ? { sentFrom: sentFrom.map((n: unknown) => (typeof n === 'number' ? renumber(n) : n)) } : {}),
  };
}

/** A HarnessError keeps its code across the worker boundary; anything else is the suite's own fault. */
function codeOf(error: SerializedError): string {
  const code = (error as { code?: unknown }).code;
  return isHarnessErrorCode(code) ? code : 'ERR_INTERNAL';
}
