import type { Contract } from '../contract/index.ts';
import { ADDED_PETS_RULES } from './rules/added-pets-rules.ts';
import { ALIKE_RULES, sentFromSeqs } from './rules/alike-rules.ts';
import { FRAMING_PROBE_RULES } from './rules/framing-probe-rules.ts';
import { FRAMING_RULES } from './rules/framing-rules.ts';
import { HEADER_RULES } from './rules/header-rules.ts';
import { MODEL_RULES } from './rules/model-rules.ts';
import { ODD_REQUEST_RULES } from './rules/odd-request-rules.ts';
import { PET_RULES } from './rules/pet-rules.ts';
import { PLAN_WINDOW_RULES } from './rules/plan-window-rules.ts';
import { RATE_EXHAUSTION_RULES } from './rules/rate-exhaustion-rules.ts';
import { RATE_REFILL_RULES } from './rules/rate-refill-rules.ts';
import { RATE_RULES } from './rules/rate-rules.ts';
import { RATE_WINDOW_RULES } from './rules/rate-window-rules.ts';
import { RESPONSE_RULES } from './rules/response-rules.ts';
import type { RuleName, RuleParams } from './rules/rule-params.ts';
import { type ExchangeLookup, type JudgmentRule, type RuleExchange, type RuleResult, fails, holds } from './rules/rule-kit.ts';

export type { ExchangeLookup, JudgmentRule, RuleExchange, RuleResult };

/**
 * Named judgments a test makes on the exchanges it received, as pure functions of what the exchange log
 * keeps: the status, the response headers, the response body and the request body as recorded. A test
 * calls `ctx.judge(rule, evidence, params)`; the harness evaluates the rule once, records
 * `{ kind: 'rule', rule, params, exchanges }`, and `rejudge` evaluates it again on the HAR entries.
 * Params come from the report and may be forged: a rule reads them defensively and never throws. A value
 * the test learnt from an earlier exchange (a created pet's id) is not a param: the params name that
 * exchange (`idFrom`) and the rule reads the value from it. A param that restates what the log records
 * (the fields a pet was added with, a list's filter) must agree with it (rules/log-anchors.ts).
 */

export type { RuleName, RuleParams };
export { type LoggedPet, PET_FIELDS, listsWholeStore, loggedPet, requestedPetId, sentPetFields } from './rules/log-anchors.ts';
export { type AddedPetRecord, introducedPetId } from './rules/rule-kit.ts';
export { answeredPet } from './rules/added-pets-rules.ts';

export const JUDGMENT_RULES: readonly JudgmentRule[] = [
  ...RESPONSE_RULES,
  ...PET_RULES,
  ...HEADER_RULES,
  ...ALIKE_RULES,
  ...MODEL_RULES,
  ...RATE_RULES,
  ...RATE_EXHAUSTION_RULES,
  ...PLAN_WINDOW_RULES,
  ...RATE_WINDOW_RULES,
  ...RATE_REFILL_RULES,
  ...FRAMING_RULES,
  ...FRAMING_PROBE_RULES,
  ...ODD_REQUEST_RULES,
  ...ADDED_PETS_RULES,
];

const BY_NAME: ReadonlyMap<string, JudgmentRule> = new Map(JUDGMENT_RULES.map((r) => [r.name, r]));

export function judgmentRule(name: string): JudgmentRule | undefined {
  return BY_NAME.get(name);
}

/** The exchange a rule's params name as the source of a value (`idFrom`, or `countFrom`: a list to count), if any. */
export function sourceSeq(params: Record<string, unknown>): number | undefined {
  const seq = params.idFrom ?? params.countFrom;
  return typeof seq === 'number' && Number.isInteger(seq) ? seq : undefined;
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
): RuleResult & { failedAt?: number; alsoAt?: number } {
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
