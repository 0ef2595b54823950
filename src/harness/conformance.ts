import { expect } from 'vitest';
import { HarnessError } from '../errors.ts';
import { trimEvidence } from './evidence.ts';
import { conformanceTest } from './file-run.ts';
import type { ConformanceMeta } from '../report/test-meta.ts';
import { recordOutcome, redactError } from './record-outcome.ts';
import { type ConformanceOptions, skipDecision } from './selection.ts';
import { type ConformanceContext, createContext } from './test-context.ts';

export type { ConformanceContext } from './test-context.ts';

/**
 * Declares a test that proves one requirement. Its title starts with the id; its exchanges, findings,
 * failure and skip reason travel to the reporter in task.meta.conformance.
 */
export function conformance(id: string, title: string, fn: (ctx: ConformanceContext) => Promise<void>, options: ConformanceOptions = {}): void {
  conformanceTest(`${id} ${title}`, { timeout: options.timeoutMs }, async ({ fileRun, task, skip, signal }) => {
    const requirement = fileRun.catalog.get(id);
    const meta: ConformanceMeta = { requirementId: id, level: requirement.level, area: requirement.area, findings: [], exchanges: [] };
    task.meta.conformance = meta;
    const decision = skipDecision(fileRun.run, requirement, options, task.id);
    if (decision) {
      meta.skipReason = decision.reason;
      meta.skipCode = decision.code;
      skip(decision.reason);
    }
    fileRun.current.meta = meta;
    fileRun.current.signal = signal;
    const { ctx, assertions } = createContext(fileRun, requirement, meta, task.name, signal, fileRun.run.replay?.[task.id]?.path);
    const expectCallsBefore = expect.getState().assertionCalls;
    try {
      await fn(ctx);
      // A test that returns without judging anything the target sent proves nothing: never a pass.
      if (assertions() === 0 && expect.getState().assertionCalls === expectCallsBefore) {
        throw new HarnessError(
          'ERR_NO_ASSERTION',
          `${id}: the test ended without asserting anything the target sent (a suite bug: it must assert or skip with a reason)`,
        );
      }
      // It judged, but over nothing that could have failed (an empty list, a store too small): untested.
      if (meta.unobservable) ctx.skip(meta.unobservable.reason, meta.unobservable.code);
    } catch (thrown) {
      // Failure text quotes response bodies, and a hostile target may echo the key back in them.
      const error = redactError(thrown, fileRun.redact);
      const skipped = recordOutcome(meta, error);
      if (meta.property?.counterexample) meta.property.counterexample = fileRun.redact(meta.property.counterexample);
      if (skipped) skip(skipped);
      throw error;
    } finally {
      fileRun.current.meta = undefined;
      fileRun.current.signal = undefined;
      if (!fileRun.run.fullEvidence) trimEvidence(meta);
    }
  });
}
