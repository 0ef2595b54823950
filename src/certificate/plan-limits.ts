import type { Judgment } from '../report/test-meta.ts';
import { type Limits, PLANS, type PlanName, isPlanName } from '../config/plans.ts';
import type { RunInfo } from '../report/run-info.ts';
import { stringifyJson } from '../text/json.ts';
import type { RecordedEntry } from './rejudge-har.ts';

/**
 * RATE-008 holds each key to its plan's row of the interface's table, and its judgments state the row:
 * `rate-header-is` with `oneOf: [perMinute, perDay]`, `rate-plan-window` with `perMinute`. The log cannot
 * say which row a forger may state, but it says which key sent each request: the curl line reads the
 * key from $API_KEY (the main key, of the report's --plan, which a certifier pins) or from
 * $FREE_PLAN_KEY and the like (a plan key of that plan). A judgment that states another row than the
 * sending key's plan (the Pro row for a Business key that answered Pro's limits) is refused.
 */

/** The row a key's plan holds it to; `custom` for an Enterprise key whose limits were not stated. */
type PlanRow = Limits | 'custom';

/** The plan of the key a logged request was sent with, by the variable its curl line reads the key from. */
function rowOfKey(variable: string | undefined, run: Pick<RunInfo, 'plan' | 'planLimits'>): { plan: string; row: PlanRow } | undefined {
  if (variable === 'API_KEY') {
    if (run.plan === undefined) return undefined;
    if (run.plan === 'enterprise') return { plan: run.plan, row: run.planLimits ?? 'custom' };
    return { plan: run.plan, row: PLANS[run.plan] };
  }
  const plan = variable === undefined ? undefined : /^([A-Z]+)_PLAN_KEY$/.exec(variable)?.[1]?.toLowerCase();
  if (plan === undefined || !isPlanName(plan) || plan === 'enterprise') return undefined;
  return { plan, row: PLANS[plan as Exclude<PlanName, 'enterprise'>] };
}

/** What the judgment states of the row, or undefined when it is not one of RATE-008's row judgments. */
function statedRow(judgment: Judgment): { perMinute?: unknown; oneOf?: unknown; min?: unknown; max?: unknown } | undefined {
  if (judgment.kind !== 'rule') return undefined;
  if (judgment.rule === 'rate-plan-window') return { perMinute: judgment.params.perMinute };
  if (judgment.rule === 'rate-header-is' && judgment.params.field === 'limit') {
    const { oneOf, min, max } = judgment.params;
    return { oneOf, min, max };
  }
  return undefined;
}

/**
 * The first RATE-008 judgment of a passed test whose stated limits are not the row of the plan of the key
 * that sent its request, said for the report; undefined when each is that row (or the requirement is
 * another).
 */
export function unplannedLimit(
  requirementId: string,
  judgments: readonly Judgment[],
  bySeq: ReadonlyMap<number, RecordedEntry>,
  run: Pick<RunInfo, 'plan' | 'planLimits'>,
): string | undefined {
  if (requirementId !== 'RATE-008') return undefined;
  for (const judgment of judgments) {
    const stated = statedRow(judgment);
    if (!stated || judgment.kind !== 'rule') continue;
    const at = `the ${judgment.rule} judgment of #${judgment.exchanges.join(', #')}`;
    const variables = new Set(judgment.exchanges.map((seq) => bySeq.get(seq)?.keyVariable));
    if (variables.size !== 1) return `${at} judges requests sent with ${variables.size} keys, where each of RATE-008's judges one key`;
    const [variable] = variables;
    const key = rowOfKey(variable, run);
    if (!key) {
      const who = variable === undefined ? 'a key the log does not name' : `$${variable}`;
      return `${at} judges a request sent with ${who}, whose plan the report does not give`;
    }
    const holds = key.row === 'custom' ? statesCustomRow(stated) : statesRow(stated, key.row);
    if (!holds) return `${at} states ${stringifyJson(judgment.params)}, where the ${key.plan}-plan key that sent it is held to ${describeRow(key.row)}`;
  }
  return undefined;
}

type StatedRow = NonNullable<ReturnType<typeof statedRow>>;

function statesRow(stated: StatedRow, row: Limits): boolean {
  if ('perMinute' in stated) return stated.perMinute === row.perMinute;
  return stringifyJson(stated.oneOf ?? null) === stringifyJson([row.perMinute, row.perDay]) && stated.min === undefined && stated.max === undefined;
}

/** An Enterprise key of unstated limits: any positive limit is its own, so that is all a judgment states. */
function statesCustomRow(stated: StatedRow): boolean {
  return !('perMinute' in stated) && stated.oneOf === undefined && stated.min === 1 && stated.max === undefined;
}

function describeRow(row: PlanRow): string {
  return row === 'custom' ? 'a custom limit of at least 1' : `${row.perMinute} a minute or ${row.perDay} a day`;
}
