import type { SerializedError } from 'vitest';
import type { TestModule, TestRunEndReason } from 'vitest/node';
import { isHarnessErrorCode } from '../errors.ts';
import type { HarnessProblem, TestOutcome } from './model.ts';

/** vitest's view of a finished run, turned into plain data for buildReport. */
export interface CollectedRun {
  tests: TestOutcome[];
  harnessErrors: HarnessProblem[];
}

/**
 * Reads test outcomes and meta from vitest's reported tasks (also after --merge-reports of blob reports,
 * which keep task meta), and turns everything that kept tests from running into harness problems.
 */
export function collectRun(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: TestRunEndReason): CollectedRun {
  const tests: TestOutcome[] = [];
  const harnessErrors: HarnessProblem[] = [];
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
      // A test the run cancelled (the deadline, --fail-fast, an interruption) carries vitest's own note and no
      // reason of ours: it did not run, which is not a precondition the target failed to provide.
      if (result.state === 'skipped' && result.note)
        outcome.skipNote = reason === 'interrupted' && !meta?.skipReason ? 'did not run: the run ended first' : result.note;
      if (result.state === 'pending') outcome.skipNote = 'did not run: the run ended first';
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
  return { tests: numberExchangesOnce(tests), harnessErrors };
}

/**
 * Numbers every exchange once for the whole run, in the order they were sent: a test file numbers its
 * own (so do the shards of a sharded run), and "#4" must name one request in a report. An exchange two
 * tests share keeps one number. Findings and failures that point at exchanges follow the new numbers.
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
        exchanges: meta.exchanges.map((e) => ({ ...e, seq: renumber(e.seq) })),
        findings: meta.findings.map((f) => ({ ...f, exchangeSeq: renumber(f.exchangeSeq) })),
        ...(failure ? { failure } : {}),
      },
    };
  });
}

/** A HarnessError keeps its code across the worker boundary; anything else is the suite's own fault. */
function codeOf(error: SerializedError): string {
  const code = (error as { code?: unknown }).code;
  return isHarnessErrorCode(code) ? code : 'ERR_INTERNAL';
}
