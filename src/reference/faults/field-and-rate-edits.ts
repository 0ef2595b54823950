import { INT64_MAX, INT64_MIN } from '../../text/json.ts';
import type { RateInfo, Reply } from '../replies.ts';
import type { NewPetRecord } from '../store.ts';

/**
 * Small helpers shared by the independent faults. These faults were written from the interface
 * document alone, as ways real servers depart from it; they touch the server only through its seams.
 */

/** PetStatus as the interface lists it. */
export const PET_STATUSES: readonly string[] = Object.freeze(['available', 'pending', 'sold']);

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isInt64(value: unknown): value is number | bigint {
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX;
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** The NewPet of a body whose fields have the right types, once a fault's leniency has been applied. */
export function newPetFrom(name: unknown, categoryId: unknown, status: unknown): NewPetRecord | undefined {
  if (typeof name !== 'string' || !isInt64(categoryId)) return undefined;
  if (status === undefined) return { name, categoryId };
  if (typeof status !== 'string' || !PET_STATUSES.includes(status)) return undefined;
  return { name, categoryId, status };
}

/** A reply with other rate-limit numbers (the X-RateLimit-* headers and Retry-After are written from them). */
export function withRate(reply: Reply, change: (rate: RateInfo) => RateInfo): Reply {
  return reply.rate ? { ...reply, rate: change({ ...reply.rate }) } : reply;
}

/** The rate-limit numbers without Retry-After. */
export function withoutRetryAfter(rate: RateInfo): RateInfo {
  const copy = { ...rate };
  delete copy.retryAfter;
  return copy;
}

/**
 * The reply without any rate-limit header. A 429 keeps its Retry-After, written by hand, as the
 * error handler of a framework does when the rate-limit headers come from a success-path middleware.
 */
export function withoutRateHeaders(reply: Reply): Reply {
  const { rate, ...rest } = reply;
  if (rate?.retryAfter === undefined) return rest;
  return { ...rest, headers: { ...rest.headers, 'retry-after': String(rate.retryAfter) } };
}

/** A reply's JSON body with other content, the rest unchanged. */
export function withBody(reply: Reply, body: string, contentType?: string): Reply {
  const next: Reply = { ...reply, body };
  if (contentType !== undefined) next.contentType = contentType;
  return next;
}
