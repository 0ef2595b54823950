import type { Level } from '../catalog/catalog.ts';
import type { Exchange, Finding } from '../client/exchange.ts';

/** What a conformance test hands the reporter through vitest's `task.meta.conformance`. */
export interface ConformanceMeta {
  requirementId: string;
  level: Level;
  area: string;
  /** Set when the test did not run its checks: read-only mode, budget spent, opt-out, --only. */
  skipReason?: string;
  /** Set when the test failed. kind=conformance blames the target, kind=harness makes the run incomplete. */
  failure?: {
    kind: 'conformance' | 'harness';
    code: string;
    message: string;
    expected?: string;
    actual?: string;
  };
  /** Always-on check violations seen during this test, each naming the requirement it breaks. */
  findings: Finding[];
  /** Every exchange of the test; bodies are kept only for failing tests and the last few exchanges. */
  exchanges: Exchange[];
  /** Property-based tests: how many cases ran, and on failure the replayable counterexample. */
  property?: {
    seed: number;
    numRuns: number;
    path?: string;
    counterexample?: string;
    shrinks?: number;
  };
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: ConformanceMeta;
  }
}
