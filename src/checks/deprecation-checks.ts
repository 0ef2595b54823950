import { operationOf, quoted } from './response-reading.ts';
import { linkRels, parseHttpDate } from '../text/header-values.ts';
import { parseItem } from '../text/structured-fields.ts';
import type { Check } from './check-types.ts';

/**
 * Link relations that announce the end of the resource they come with (RFC 9745 §3, RFC 8594 §6) or name
 * its successor (RFC 5829): on an operation that is not deprecated, each tells a client to move away.
 */
const DEPRECATING_RELS: readonly string[] = ['deprecation', 'sunset', 'successor-version'];

/**
 * DEP-006: Deprecation, Sunset and a Link to a deprecation notice, a sunset policy or a successor announce
 * the end of the operation they come with, so only a deprecated one carries them. listPets is the
 * interface's named replacement of getPet: a client told it is deprecated has nowhere left to go.
 */
export const deprecationOnlyWhereDeprecated: Check = {
  name: 'deprecation-only-where-deprecated',
  requirementId: 'DEP-006',
  run(ctx) {
    const operation = operationOf(ctx);
    if (!operation || operation.deprecated) return undefined;
    const sent = (['deprecation', 'sunset'] as const).filter((name) => ctx.headers[name] !== undefined);
    const shown = sent.map((name) => `${name === 'sunset' ? 'Sunset' : 'Deprecation'} ${quoted(ctx, ctx.headers[name] ?? '')}`);
    const link = ctx.headers.link;
    const rels = link === undefined ? [] : linkRels(link).filter((rel) => DEPRECATING_RELS.includes(rel));
    if (link !== undefined && rels.length > 0) shown.push(`Link ${quoted(ctx, link, 160)} (rel ${rels.join(', ')})`);
    if (shown.length === 0) return undefined;
    return {
      expected: `${operation.operationId} (not deprecated) without Deprecation, Sunset or a Link rel ${DEPRECATING_RELS.join(', ')}`,
      actual: `${operation.operationId} answered with ${shown.join(', ')}`,
    };
  },
};

/**
 * DEP-002: a Sunset header, when present, is an HTTP-date (RFC 8594 §3; any of RFC 9110 §5.6.7's three
 * forms, which every recipient parses), and on a deprecated operation it names the announced removal day.
 * An ISO 8601 date names the day to a person but not to a client that reads the field.
 */
export const sunsetDate: Check = {
  name: 'sunset-date',
  requirementId: 'DEP-002',
  run(ctx) {
    const raw = ctx.headers.sunset;
    const operation = operationOf(ctx);
    if (raw === undefined || !operation) return undefined;
    const sunset = operation.sunset;
    const day = sunset === undefined ? undefined : new Date(sunset).toISOString().slice(0, 10);
    const expected = `Sunset as an HTTP-date (RFC 8594 §3)${day === undefined ? '' : ` naming ${day} (any time that day, GMT)`}`;
    const epoch = parseHttpDate(raw.trim(), ctx.now);
    if (epoch === undefined) return { expected, actual: `Sunset ${quoted(ctx, raw)}, which is not an HTTP-date` };
    const named = new Date(epoch).toISOString().slice(0, 10);
    if (day === undefined || named === day) return undefined;
    return { expected, actual: `Sunset ${quoted(ctx, raw)}, which names ${named}` };
  },
};

/**
 * DEP-007: a Deprecation header, when present, is an RFC 9745 Structured Date (`@` and Unix seconds), and
 * a Sunset sent with it is not earlier than the deprecation (RFC 9745 §3). Earlier drafts' "true" and
 * HTTP-dates are what a client of the RFC does not parse; DEP-003 only asks that the header be there.
 */
export const deprecationStructuredDate: Check = {
  name: 'deprecation-structured-date',
  requirementId: 'DEP-007',
  run(ctx) {
    const raw = ctx.headers.deprecation;
    if (raw === undefined || !operationOf(ctx)) return undefined;
    const item = parseItem(raw);
    const date = item !== undefined && typeof item.value === 'object' && 'date' in item.value ? item.value.date : undefined;
    if (date === undefined) return { expected: 'Deprecation: @<unix seconds> (an RFC 9745 Structured Date)', actual: `Deprecation ${quoted(ctx, raw)}` };
    const sunsetRaw = ctx.headers.sunset;
    const sunset = sunsetRaw === undefined ? undefined : parseHttpDate(sunsetRaw.trim(), ctx.now);
    if (sunset === undefined || sunset >= date * 1000) return undefined;
    const when = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    return {
      expected: 'a Sunset no earlier than the Deprecation date (RFC 9745 §3)',
      actual: `Deprecation ${quoted(ctx, raw)} (${when(date * 1000)}) comes after Sunset ${quoted(ctx, sunsetRaw ?? '')} (${when(sunset)})`,
    };
  },
};
