import { parseJson } from '../../text/json.ts';
import type { FaultHooks } from '../seams.ts';
import type { Reply } from '../replies.ts';

/**
 * One outside fault: a mistake from outside-fault-list.md, written from the interface description alone, and the
 * seams of the reference it changes. The author had no requirement catalog, so a fault names no
 * requirement: it is caught when a run says NOT CONFORMANT.
 */
export interface OutsideFault {
  readonly name: `out-${string}`;
  /** The area of the interface the mistake is in (outside-fault-list.md's headings). */
  readonly area: string;
  /** What the server does wrong, in one sentence. */
  readonly description: string;
  readonly hooks: FaultHooks;
}

/** A createPet body as JSON (int64 exact), or undefined when it is not a JSON object. */
export function bodyObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = parseJson(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A new reply in place of the one computed, keeping its rate-limit numbers and extra headers. */
export function instead(reply: Reply, next: Reply): Reply {
  const merged: Reply = { ...next };
  if (reply.rate) merged.rate = reply.rate;
  if (reply.headers) merged.headers = { ...reply.headers, ...next.headers };
  return merged;
}
