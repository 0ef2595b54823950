import { mediaType } from '../../text/header-values.ts';
import { stringifyJson } from '../../text/json.ts';
import { formatIssues } from '../response-reading.ts';
import { listsWholeStore, queryParam } from './log-anchors.ts';
import {
  type ExchangeLookup,
  type JudgmentRule,
  type RuleExchange,
  type RuleResult,
  arrayBody,
  bad,
  describeBody,
  fails,
  holds,
  isObject,
  numberParam,
  shown,
  stringList,
} from './rule-kit.ts';

function within(count: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}

export function bounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}` : `${min} to ${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}

export { within };

/**
 * How many items the list of exchange `seq` held: every one when its body is whole; when the log cut it,
 * those whole before the cut (fewer than it held, never more, so a bound read from it only loosens).
 */
function countedFrom(seq: unknown, lookup: ExchangeLookup): { items: number } | { failure: RuleResult } {
  if (typeof seq !== 'number' || !Number.isInteger(seq)) return { failure: bad('list-length') };
  const source = lookup(seq);
  const expected = `the list of limit=100 without a filter #${seq} answered, to count what the store holds`;
  if (!source) return { failure: fails(expected, `#${seq} is not an exchange of the log`) };
  if (!listsWholeStore(source)) return { failure: fails(expected, `#${seq} asked ${source.method ?? 'GET'} ${source.url}`) };
  const list = arrayBody(source);
  if (list && source.status === 200) return { items: list.length };
  if (source.bodyCut && source.status === 200) return { items: Math.max(source.items ?? 0, leadingItems(source.text)) };
  return { failure: fails(expected, `#${seq} answered ${source.status} with ${describeBody(source)}`) };
}

/**
 * How many items a list held: its parsed length; for a list the log cut, the count recorded with it,
 * never fewer than the items the log kept whole (a cut falls inside or after the last of those).
 */
function listLength(e: RuleExchange): number | RuleResult | undefined {
  if (!e.bodyCut) return arrayBody(e)?.length;
  if (e.items === undefined || e.status !== 200 || !e.text.trimStart().startsWith('[')) return undefined;
  const kept = leadingItems(e.text);
  return e.items >= kept ? e.items : fails(`a count of at least the ${kept} items the log kept whole`, `${e.items} recorded`);
}

/** The objects a JSON array's text holds whole from its start: its items before a cut. */
export function leadingItems(text: string): number {
  let depth = 0;
  let items = 0;
  let inString = false;
  let escaped = false;
  for (const char of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') {
      depth -= 1;
      if (char === '}' && depth === 1) items += 1;
    }
  }
  return items;
}

/** Rules on one response's status, headers and body. */
export const RESPONSE_RULES: readonly JudgmentRule[] = [
  {
    name: 'json-schema',
    readsBody: true,
    judge(e, params, contract) {
      const schema = params.schema;
      if (schema !== 'Pet' && schema !== 'Pets' && schema !== 'Error') return bad('json-schema');
      const expected = `a body that is ${schema}`;
      if (!e.isJson) return fails(expected, describeBody(e));
      const issues = contract.validate(`#/components/schemas/${schema}`, e.body);
      return issues.length === 0 ? holds(expected) : fails(expected, formatIssues(issues));
    },
  },
  {
    name: 'status-in',
    readsBody: false,
    judge(e, params) {
      const allowed = Array.isArray(params.allowed) ? params.allowed.filter((s): s is number => typeof s === 'number') : [];
      if (allowed.length === 0) return bad('status-in');
      const expected = `status ${allowed.join(' or ')}`;
      return allowed.includes(e.status) ? holds(expected) : fails(expected, `status ${e.status}`);
    },
  },
  {
    name: 'status-below',
    readsBody: false,
    // A raw exchange records its status as any other (CON-004's held connection is judged by it).
    judgesRaw: true,
    judge(e, params) {
      const limit = numberParam(params.limit);
      if (limit === undefined) return bad('status-below');
      const expected = `a status below ${limit}`;
      return e.status < limit ? holds(expected) : fails(expected, `status ${e.status}: ${describeBody(e)}`);
    },
  },
  {
    name: 'status-other-than',
    readsBody: false,
    judge(e, params) {
      const status = numberParam(params.status);
      if (status === undefined) return bad('status-other-than');
      const expected = `a status other than ${status}`;
      return e.status !== status ? holds(expected) : fails(expected, `status ${e.status}: ${describeBody(e)}`);
    },
  },
  {
    name: 'headers-present',
    readsBody: false,
    judge(e, params) {
      const names = stringList(params.names);
      if (!names || names.length === 0) return bad('headers-present');
      const missing = names.filter((n) => e.headers[n.toLowerCase()] === undefined);
      const expected = `the header${names.length > 1 ? 's' : ''} ${names.join(', ')}`;
      return missing.length === 0 ? holds(expected) : fails(expected, `${missing.join(', ')} missing on the ${e.status}`);
    },
  },
  {
    name: 'media-type',
    readsBody: false,
    judge(e, params) {
      if (typeof params.name !== 'string' || typeof params.value !== 'string') return bad('media-type');
      const raw = e.headers[params.name.toLowerCase()];
      const expected = `${params.name} ${params.value}`;
      if (mediaType(raw) === params.value.toLowerCase()) return holds(expected);
      return fails(expected, raw === undefined ? `no ${params.name} header` : `${params.name} ${JSON.stringify(raw)}`);
    },
  },
  {
    name: 'list-length',
    readsBody: true,
    // A list over the log's cap is cut, its count recorded with it: the bounds still count (issue 48).
    judgesCut: (e) => e.operationId === 'listPets' && e.items !== undefined,
    judge(e, params, _contract, lookup) {
      const max = numberParam(params.max);
      // countFrom: at least as many items as the list that exchange held (up to max), read from the log.
      const counted = params.countFrom === undefined ? undefined : countedFrom(params.countFrom, lookup);
      if (counted && 'failure' in counted) return counted.failure;
      const stated = numberParam(params.min);
      const min = counted ? Math.max(stated ?? 0, max === undefined ? counted.items : Math.min(max, counted.items)) : stated;
      if (min === undefined && max === undefined) return bad('list-length');
      const expected = `a list of ${bounds(min, max)} items`;
      // A list asked for with a limit the interface allows (1 to 100) is never allowed more than that limit.
      const limit = queryParam(e, 'limit');
      if (limit !== undefined && /^(?:[1-9]\d?|100)$/.test(limit) && (max === undefined || max > Number(limit)))
        return fails(`at most the limit=${limit} the request asked for`, `the judgment allows ${bounds(min, max)} items`);
      const length = listLength(e);
      if (length === undefined) return fails(expected, `status ${e.status} with ${describeBody(e)}`);
      if (typeof length !== 'number') return length;
      return within(length, min, max) ? holds(expected) : fails(expected, `${length} items`);
    },
  },
  {
    name: 'list-only-status',
    readsBody: true,
    judge(e, params) {
      if (typeof params.status !== 'string') return bad('list-only-status');
      const expected = `only ${params.status} animals`;
      const filter = queryParam(e, 'status');
      if (filter !== params.status)
        return fails(`the status=${params.status} the request asked for`, `the request asked for ${filter === undefined ? 'no status' : `status=${filter}`}`);
      const list = arrayBody(e);
      if (!list) return fails(expected, `status ${e.status} with ${describeBody(e)}`);
      const other = list.find((item) => !isObject(item) || item.status !== params.status);
      return other === undefined ? holds(expected) : fails(expected, `an item ${shown(stringifyJson(other ?? null))}`);
    },
  },
  {
    name: 'field-non-empty',
    readsBody: true,
    judge(e, params) {
      if (typeof params.field !== 'string') return bad('field-non-empty');
      const expected = `a non-empty ${params.field}`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      const value = e.body[params.field];
      return typeof value === 'string' && value.trim() !== '' ? holds(expected) : fails(expected, `${params.field} ${shown(stringifyJson(value ?? null))}`);
    },
  },
  {
    name: 'error-status-is-http-status',
    readsBody: true,
    judge(e) {
      const expected = `Error.status ${e.status}`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      const value = e.body.status;
      return typeof value === 'number' && value === e.status
        ? holds(expected)
        : fails(expected, `HTTP ${e.status} with Error.status ${shown(stringifyJson(value ?? null))}`);
    },
  },
];
