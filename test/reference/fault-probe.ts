import type { ReferenceOptions, ReferenceServer } from '../../src/reference/index.ts';
import type { Answer, ManualClock } from '../support/reference-server.ts';

export { call, createPet } from '../support/reference-server.ts';

export interface ProbeContext {
  server: ReferenceServer;
  clock: ManualClock;
}

/**
 * A short scenario whose observation differs between the correct server and one with the fault:
 * proof that the fault really changes behaviour, not merely that its name exists.
 */
export interface FaultProbe {
  /** Options for both servers of the comparison (a small key, a filled store…). */
  options?: ReferenceOptions;
  run(context: ProbeContext): Promise<unknown>;
}

/** What a comparison should see of a response: status, the headers faults touch, and the body. */
export function bodyOf(answer: Answer): unknown {
  return { status: answer.status, type: answer.headers['content-type'], body: answer.json ?? answer.text };
}
