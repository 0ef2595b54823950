import type { FaultHooks } from '../seams.ts';

/** The seams are the server's own (../seams.ts); a fault is a set of hooks on them. */
export type { AuthAttempt, FaultHooks, ReplyContext } from '../seams.ts';

export type FaultGroup = 'status' | 'schema' | 'errors' | 'validation' | 'store' | 'limits' | 'auth' | 'rate-limit' | 'deprecation' | 'http';

export interface FaultDefinition<Name extends string = string> {
  readonly name: Name;
  readonly group: FaultGroup;
  readonly description: string;
  /** Requirement ids whose tests a correct suite fails against a server with this fault. */
  readonly detectedBy: readonly string[];
  /** Only SHOULD requirements catch it: visible in --strict runs only. */
  readonly strictOnly?: boolean;
  /**
   * Only ADVISORY requirements catch it (a standard's, not the interface's): the run stays conformant,
   * even with --strict, and the report shows the advisory warning.
   */
  readonly advisoryOnly?: boolean;
  /**
   * The minute window, in seconds, the reference must be started with for the fault to show (a run states
   * it with --rate-window); absent: the embedded reference's own short window does.
   */
  readonly windowSeconds?: number;
  /** Creates the fault's hooks for one server (a fault may keep per-server state in the closure). */
  readonly hooks: () => FaultHooks;
}

/** Keeps the literal name type while checking the shape. */
export function defineFault<const Name extends string>(definition: FaultDefinition<Name>): FaultDefinition<Name> {
  return definition;
}
