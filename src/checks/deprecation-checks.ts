import { operationOf, quoted } from './response-reading.ts';
import { parseHttpDate } from '../header-values.ts';
import { parseItem } from '../structured-fields.ts';
import type { Check } from './types.ts';

// RFC 8594 asks for an HTTP-date; an ISO 8601 date still names the day, which is what DEP-002 (a MUST)
// is about. The exact format is DEP-004's concern, a SHOULD checked by the deprecation suite.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function parseSunset(raw: string, now: number): number | undefined {
  const httpDate = parseHttpDate(raw, now);
  if (httpDate !== undefined) return httpDate;
  if (!ISO_DATE.test(raw)) return undefined;
  // A bare date or a time without an offset is read as UTC, the way Sunset's HTTP-date is.
  const iso = /[zZ]|[+-]\d{2}:?\d{2}$/.test(raw) || raw.length === 10 ? raw : `${raw}Z`;
  const epoch = Date.parse(iso);
  return Number.isNaN(epoch) ? undefined : epoch;
}

/** DEP-006: Deprecation and Sunset announce the end of the operation they come with, so only a deprecated one carries them. */
export const deprecationOnlyWhereDeprecated: Check = {
  name: 'deprecation-only-where-deprecated',
  requirementId: 'DEP-006',
  run(ctx) {
    const operation = operationOf(ctx);
    if (!operation || operation.deprecated) return undefined;
    const sent = (['deprecation', 'sunset'] as const).filter((name) => ctx.headers[name] !== undefined);
    if (sent.length === 0) return undefined;
    const shown = sent.map((name) => `${name === 'sunset' ? 'Sunset' : 'Deprecation'} ${quoted(ctx, ctx.headers[name] ?? '')}`).join(', ');
    return { expected: `${operation.operationId} (not deprecated) without Deprecation or Sunset`, actual: `${operation.operationId} answered with ${shown}` };
  },
};

/** DEP-002: a Sunset header on a deprecated operation, when present, names the announced removal day. */
export const sunsetDate: Check = {
  name: 'sunset-date',
  requirementId: 'DEP-002',
  run(ctx) {
    const sunset = operationOf(ctx)?.sunset;
    const raw = ctx.headers.sunset;
    if (sunset === undefined || raw === undefined) return undefined;
    const day = new Date(sunset).toISOString().slice(0, 10);
    const expected = `Sunset naming ${day} (any time that day, UTC)`;
    const epoch = parseSunset(raw, ctx.now);
    if (epoch === undefined) return { expected, actual: `Sunset ${quoted(ctx, raw)}, which is not a date` };
    const named = new Date(epoch).toISOString().slice(0, 10);
    if (named === day) return undefined;
    return { expected, actual: `Sunset ${quoted(ctx, raw)}, which names ${named}` };
  },
};

/**
 * DEP-007: a Deprecation header is an RFC 9745 Structured Date (`@` and Unix seconds), and a Sunset sent
 * with it is not earlier than the deprecation (RFC 9745 §3). Earlier drafts' "true" and HTTP-dates are
 * what this SHOULD points away from; DEP-003 accepts them as a header that is there.
 */
export const deprecationStructuredDate: Check = {
  name: 'deprecation-structured-date',
  requirementId: 'DEP-007',
  run(ctx) {
    const raw = ctx.headers.deprecation;
    if (raw === undefined || !operationOf(ctx)?.deprecated) return undefined;
    const item = parseItem(raw);
    const date = item !== undefined && typeof item.value === 'object' && 'date' in item.value ? item.value.date : undefined;
    if (date === undefined) return { expected: 'Deprecation: @<unix seconds> (an RFC 9745 Structured Date)', actual: `Deprecation ${quoted(ctx, raw)}` };
    const sunsetRaw = ctx.headers.sunset;
    const sunset = sunsetRaw === undefined ? undefined : parseSunset(sunsetRaw, ctx.now);
    if (sunset === undefined || sunset >= date * 1000) return undefined;
    const when = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    return {
      expected: 'a Sunset no earlier than the Deprecation date (RFC 9745 §3)',
      actual: `Deprecation ${quoted(ctx, raw)} (${when(date * 1000)}) comes after Sunset ${quoted(ctx, sunsetRaw ?? '')} (${when(sunset)})`,
    };
  },
};
