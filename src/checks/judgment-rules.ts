import type { Contract } from '../contract/index.ts';
import { mediaType } from '../header-values.ts';
import { readJson, stringifyJson, toBigInt } from '../json.ts';
import { formatIssues } from './response-reading.ts';

/**
 * Named judgments a test makes on the exchanges it received, as pure functions of what the exchange log
 * keeps: the status, the response headers, the response body and the request body as recorded. A test
 * calls `ctx.judge(rule, evidence, params)`; the harness evaluates the rule once, records
 * `{ kind: 'rule', rule, params, exchanges }`, and `rejudge` evaluates it again on the HAR entries.
 * Params come from the report and may be forged: a rule reads them defensively and never throws.
 */

/** One exchange as a rule sees it: what the HAR entry records of it. */
export interface RuleExchange {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  /** The response body as recorded. */
  text: string;
  body: unknown;
  isJson: boolean;
  /** The request body as sent (the HAR's postData text), when there was one. */
  requestText: string | undefined;
}

export interface RuleResult {
  holds: boolean;
  /** What the rule requires, and what the exchange(s) gave: short phrases for the failure. */
  expected: string;
  actual: string;
}

/** Each rule's params: plain JSON, so the report can carry them (ids as decimal strings). */
export interface RuleParams {
  /** The body is JSON and valid against `#/components/schemas/<schema>`. */
  'json-schema': { schema: 'Pet' | 'Pets' | 'Error' };
  /** The status is one of `allowed`. */
  'status-in': { allowed: number[] };
  /** The status is below `limit` (e.g. never a 5xx). */
  'status-below': { limit: number };
  /** Each header is present. */
  'headers-present': { names: string[] };
  /** The header's media type (parameters dropped, lower-cased) is `value`. */
  'media-type': { name: string; value: string };
  /** The body is a JSON array of at least `min` / at most `max` items. */
  'list-length': { min?: number; max?: number };
  /** The list holds the item whose id is `id` at least `min` / at most `max` times. */
  'list-count-of-id': { id: string; min?: number; max?: number };
  /** Every item of the list has `status` equal to `status`. */
  'list-only-status': { status: string };
  /** The body's `field` is a string that is not blank. */
  'field-non-empty': { field: string };
  /** The body's `status` field is the number of the HTTP status. */
  'error-status-is-http-status': Record<string, never>;
  /** The response Pet's name, categoryId (and status, when sent) are those of the request body. */
  'pet-echoes-sent': { fields: Array<'name' | 'categoryId' | 'status'> };
  /** The response Pet's id is not the `id` the request body sent. */
  'pet-id-not-sent': Record<string, never>;
  /** The body is the Pet with these fields (ids as decimal strings); a field not given is not compared. */
  'pet-is': { id?: string; name?: string; categoryId?: string; status?: string };
}

export type RuleName = keyof RuleParams;

export interface JudgmentRule {
  name: RuleName;
  /** Reads a body (response or request): not re-evaluated on a body the log cut or may not hold exactly. */
  readsBody: boolean;
  /** Judges one exchange; a judgment naming several holds when the rule holds on each. */
  judge(exchange: RuleExchange, params: Record<string, unknown>, contract: Contract): RuleResult;
}

const holds = (expected: string, actual = ''): RuleResult => ({ holds: true, expected, actual });
const fails = (expected: string, actual: string): RuleResult => ({ holds: false, expected, actual });
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const numberParam = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
const shown = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);
const describeBody = (e: RuleExchange) => (e.text === '' ? 'an empty body' : e.isJson ? shown(e.text) : `a body that is not JSON: ${shown(e.text)}`);
const bad = (rule: string) => fails(`valid params for ${rule}`, 'params this rule cannot read');

function arrayBody(e: RuleExchange): unknown[] | undefined {
  return e.isJson && Array.isArray(e.body) ? e.body : undefined;
}

function within(count: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}

function bounds(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}` : `${min} to ${max}`;
  return min !== undefined ? `at least ${min}` : `at most ${max}`;
}

function sentBody(e: RuleExchange): Record<string, unknown> | undefined {
  if (e.requestText === undefined) return undefined;
  const reading = readJson(e.requestText);
  return reading.ok && isObject(reading.value) ? reading.value : undefined;
}

/** Equal as JSON values, integers compared exactly (a bigint and a number of one value are equal). */
function sameValue(a: unknown, b: unknown): boolean {
  const x = toBigInt(a);
  const y = toBigInt(b);
  if (x !== undefined || y !== undefined) return x !== undefined && x === y;
  return a === b;
}

export const JUDGMENT_RULES: readonly JudgmentRule[] = [
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
    judge(e, params) {
      const limit = numberParam(params.limit);
      if (limit === undefined) return bad('status-below');
      const expected = `a status below ${limit}`;
      return e.status < limit ? holds(expected) : fails(expected, `status ${e.status}: ${describeBody(e)}`);
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
    judge(e, params) {
      const min = numberParam(params.min);
      const max = numberParam(params.max);
      if (min === undefined && max === undefined) return bad('list-length');
      const expected = `a list of ${bounds(min, max)} items`;
      const list = arrayBody(e);
      if (!list) return fails(expected, `status ${e.status} with ${describeBody(e)}`);
      return within(list.length, min, max) ? holds(expected) : fails(expected, `${list.length} items`);
    },
  },
  {
    name: 'list-count-of-id',
    readsBody: true,
    judge(e, params) {
      const id = typeof params.id === 'string' && /^-?\d{1,20}$/.test(params.id) ? BigInt(params.id) : undefined;
      const min = numberParam(params.min);
      const max = numberParam(params.max);
      if (id === undefined || (min === undefined && max === undefined)) return bad('list-count-of-id');
      const expected = `a list holding id ${id} ${bounds(min, max)} times`;
      const list = arrayBody(e);
      if (!list) return fails(expected, `status ${e.status} with ${describeBody(e)}`);
      const count = list.filter((item) => isObject(item) && toBigInt(item.id) === id).length;
      return within(count, min, max) ? holds(expected) : fails(expected, `id ${id} listed ${count} times in ${list.length} items`);
    },
  },
  {
    name: 'list-only-status',
    readsBody: true,
    judge(e, params) {
      if (typeof params.status !== 'string') return bad('list-only-status');
      const expected = `only ${params.status} animals`;
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
  {
    name: 'pet-echoes-sent',
    readsBody: true,
    judge(e, params) {
      const fields = stringList(params.fields)?.filter((f) => f === 'name' || f === 'categoryId' || f === 'status');
      if (!fields || fields.length === 0) return bad('pet-echoes-sent');
      const sent = sentBody(e);
      if (!sent) return fails('a request body that is a JSON object', 'none recorded');
      const expected = `a Pet echoing the ${fields.join(', ')} sent`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      const body = e.body;
      const differ = fields.filter((f) => f in sent && !sameValue(body[f], sent[f]));
      const absent = fields.filter((f) => !(f in sent) && f !== 'status');
      if (absent.length > 0) return fails(expected, `the request sent no ${absent.join(', ')}`);
      return differ.length === 0
        ? holds(expected)
        : fails(expected, differ.map((f) => `${f} ${shown(stringifyJson(body[f] ?? null), 60)} for ${shown(stringifyJson(sent[f] ?? null), 60)}`).join(', '));
    },
  },
  {
    name: 'pet-id-not-sent',
    readsBody: true,
    judge(e) {
      const sent = sentBody(e);
      const id = sent ? toBigInt(sent.id) : undefined;
      if (id === undefined) return fails('a request body that sent an id', 'none recorded');
      const expected = `an id the service assigns, not the ${id} sent in the body`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      const got = toBigInt(e.body.id);
      return got !== id ? holds(expected) : fails(expected, `id ${got}`);
    },
  },
  {
    name: 'pet-is',
    readsBody: true,
    judge(e, params) {
      const fields = (['id', 'name', 'categoryId', 'status'] as const).filter((f) => params[f] !== undefined);
      if (fields.length === 0 || fields.some((f) => typeof params[f] !== 'string')) return bad('pet-is');
      const wanted = (f: (typeof fields)[number]) => {
        const text = params[f] as string;
        return (f === 'id' || f === 'categoryId') && /^-?\d{1,20}$/.test(text) ? BigInt(text) : text;
      };
      const expected = `the Pet {${fields.map((f) => `${f}=${String(wanted(f))}`).join(', ')}}`;
      if (!isObject(e.body)) return fails(expected, describeBody(e));
      const body = e.body;
      const differ = fields.filter((f) => !sameValue(body[f], wanted(f)));
      return differ.length === 0 ? holds(expected) : fails(expected, differ.map((f) => `${f} ${shown(stringifyJson(body[f] ?? null), 60)}`).join(', '));
    },
  },
];

const BY_NAME: ReadonlyMap<string, JudgmentRule> = new Map(JUDGMENT_RULES.map((r) => [r.name, r]));

export function judgmentRule(name: string): JudgmentRule | undefined {
  return BY_NAME.get(name);
}

/**
 * Evaluates a rule on each exchange: it holds when it holds on every one; the first that fails gives the
 * failure. A rule that throws on hostile input fails, never crashes the run or the re-judging.
 */
export function evaluateRule(
  name: string,
  exchanges: readonly RuleExchange[],
  params: Record<string, unknown>,
  contract: Contract,
): RuleResult & { failedAt?: number } {
  const rule = BY_NAME.get(name);
  if (!rule) return fails(`a rule this suite has`, `the unknown rule ${JSON.stringify(name)}`);
  let expected = '';
  for (const [index, exchange] of exchanges.entries()) {
    let result: RuleResult;
    try {
      result = rule.judge(exchange, params, contract);
    } catch (error) {
      result = fails(`${name} decided`, `the rule threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!result.holds) return { ...result, failedAt: index };
    expected = result.expected;
  }
  return holds(expected);
}
