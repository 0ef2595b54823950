import type { Contract } from '../contract/index.ts';
import { ALIKE_RULES, sentFromSeqs } from './rules/alike-rules.ts';
import { HEADER_RULES } from './rules/header-rules.ts';
import { PET_RULES } from './rules/pet-rules.ts';
import { RESPONSE_RULES } from './rules/response-rules.ts';
import { type ExchangeLookup, type JudgmentRule, type RuleExchange, type RuleResult, fails, holds } from './rules/rule-kit.ts';

export type { ExchangeLookup, JudgmentRule, RuleExchange, RuleResult };

/**
 * Named judgments a test makes on the exchanges it received, as pure functions of what the exchange log
 * keeps: the status, the response headers, the response body and the request body as recorded. A test
 * calls `ctx.judge(rule, evidence, params)`; the harness evaluates the rule once, records
 * `{ kind: 'rule', rule, params, exchanges }`, and `rejudge` evaluates it again on the HAR entries.
 * Params come from the report and may be forged: a rule reads them defensively and never throws. A value
 * the test learnt from an earlier exchange (a created pet's id) is not a param: the params name that
 * exchange (`idFrom`) and the rule reads the value from it.
 */

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
  /**
   * The list holds the animal at least `min` / at most `max` times; its id is read from the exchange
   * `idFrom` (the createPet that added it), never stated in the report.
   */
  'list-count-of-id': { idFrom: number; min?: number; max?: number };
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
  /**
   * The body is the Pet with these fields (categoryId as a decimal string); a field not given is not
   * compared. Its id, when compared, is read from the exchange `idFrom`. `statusIfAnswered`: the status
   * is compared only when the body has one.
   */
  'pet-is': { idFrom?: number; name?: string; categoryId?: string; status?: string; statusIfAnswered?: true };
  /** The body's id is an integer within int64. */
  'pet-id-int64': Record<string, never>;
  /**
   * The exchanges (one request sent in different ways) share their status, media type, kind of body,
   * rate-limit headers' presence and, where `sentFrom` names the exchange whose request body sent a pet
   * (one per exchange: a createPet, itself), which of its fields came back as sent.
   */
  'answered-alike': { sentFrom?: number[] };
  /** The Pets the exchanges answered have distinct ids (each an integer). */
  'pet-ids-distinct': Record<string, never>;
  /** A 200 to getPet is the animal whose id the request's path names. */
  'pet-is-requested': Record<string, never>;
  /** The Pet's status is absent or one of the contract's PetStatus values. */
  'status-omitted-or-enum': Record<string, never>;
  /** A Deprecation header: RFC 9745's @<unix seconds>, or the older "true" or an HTTP-date. */
  'deprecation-header': Record<string, never>;
  /** A Sunset HTTP-date naming the day of the operation's x-sunset in the contract. */
  'sunset-names-day': Record<string, never>;
  /** A Link header with a rel to the replacement or the deprecation notice. */
  'deprecation-link': Record<string, never>;
  /** The status is one the contract documents for the exchange's operation (or a removal after its sunset). */
  'status-documented': Record<string, never>;
  /** Allow lists the methods the interface gives the request's path. */
  'allow-lists-path-methods': Record<string, never>;
  /** A 201's Location names /pets/{the id of its body}. */
  'location-names-pet': Record<string, never>;
}

export type RuleName = keyof RuleParams;

export const JUDGMENT_RULES: readonly JudgmentRule[] = [...RESPONSE_RULES, ...PET_RULES, ...HEADER_RULES, ...ALIKE_RULES];

const BY_NAME: ReadonlyMap<string, JudgmentRule> = new Map(JUDGMENT_RULES.map((r) => [r.name, r]));

export function judgmentRule(name: string): JudgmentRule | undefined {
  return BY_NAME.get(name);
}

/** The exchange a rule's params name as the source of a value (`idFrom`), if any. */
export function sourceSeq(params: Record<string, unknown>): number | undefined {
  return typeof params.idFrom === 'number' && Number.isInteger(params.idFrom) ? params.idFrom : undefined;
}

/** The exchanges a rule's params name as the requests that sent what it compares with (`sentFrom`). */
export function sentSeqs(params: Record<string, unknown>): number[] {
  return sentFromSeqs(params) ?? [];
}

/**
 * Evaluates a rule on each exchange: it holds when it holds on every one; the first that fails gives the
 * failure. `lookup` finds the exchange its params name as a source. A rule that throws on hostile input
 * fails, never crashes the run or the re-judging.
 */
export function evaluateRule(
  name: string,
  exchanges: readonly RuleExchange[],
  params: Record<string, unknown>,
  contract: Contract,
  lookup: ExchangeLookup = () => undefined,
): RuleResult & { failedAt?: number } {
  const rule = BY_NAME.get(name);
  if (!rule) return fails(`a rule this suite has`, `the unknown rule ${JSON.stringify(name)}`);
  let expected = '';
  for (const [index, exchange] of exchanges.entries()) {
    let result: RuleResult;
    try {
      result = rule.judge(exchange, params, contract, lookup);
    } catch (error) {
      result = fails(`${name} decided`, `the rule threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!result.holds) return { ...result, failedAt: index };
    expected = result.expected;
  }
  if (!rule.judgeAll) return holds(expected);
  try {
    return rule.judgeAll(exchanges, params, lookup);
  } catch (error) {
    return fails(`${name} decided`, `the rule threw: ${error instanceof Error ? error.message : String(error)}`);
  }
}
