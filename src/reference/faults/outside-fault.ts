import { INT64_MAX, INT64_MIN, parseJson } from '../../text/json.ts';
import type { FaultHooks } from '../seams.ts';
import type { RateInfo, Reply } from '../replies.ts';

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

/** PetStatus as the interface lists it. */
export const STATUSES: readonly string[] = Object.freeze(['available', 'pending', 'sold']);

/** A createPet body as JSON (int64 exact), or undefined when it is not a JSON object. */
export function bodyObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = parseJson(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function isInt64(value: unknown): value is number | bigint {
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX;
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** The reply with other rate-limit numbers; the X-RateLimit-* headers and Retry-After are written from them. */
export function withRate(reply: Reply, change: (rate: RateInfo) => RateInfo): Reply {
  return reply.rate ? { ...reply, rate: change({ ...reply.rate }) } : reply;
}

/** A new reply in place of the one computed, keeping its rate-limit numbers and extra headers. */
export function instead(reply: Reply, next: Reply): Reply {
  const merged: Reply = { ...next };
  if (reply.rate) merged.rate = reply.rate;
  if (reply.headers) merged.headers = { ...reply.headers, ...next.headers };
  return merged;
}
