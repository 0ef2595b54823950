import { type LoggedPet, PET_FIELDS } from '../checks/judgment-rules.ts';
import { stringifyJson } from '../text/json.ts';
import type { Judgment } from '../report/test-meta.ts';

/**
 * A judgment's params and a status judgment's allowed statuses come from the report. The rules refuse
 * params that contradict the log (src/checks/rules/log-anchors.ts); what the log cannot say, a forger who
 * edits a failed test into a pass could still restate: allow the status the server answered, ask for
 * a header it sent, compare fewer fields. The tables below hold what every authentic test of a
 * requirement states, so a judgment that states less, or expects something else, is refused.
 *
 * Taken from the judgments of 269 runs (docs/how-to/certification.md): the reference at each profile, every
 * valid variant and named fault, remote with keys of each plan and read-only; an entry is what all of
 * them state. The valid-variant and fault verdict tests re-judge every run with these tables, so an
 * entry an authentic run breaks fails there.
 */

/**
 * How a passed test states a rule's params on every judgment of that rule: the `keys` it always gives;
 * `whole`: every field the log holds of the animal `idFrom` names (what its createPet sent, or the listed
 * animal's) is compared; `without`: a key that would loosen the rule is never given; `oneOf`: a key's
 * value is one of these (compared as JSON); `everySent`: the `fields` compared hold every Pet field the
 * judged request sent (what it sent is in the log; which of it is compared is the report's to say).
 */
export interface StatedInFull {
  keys?: readonly string[];
  whole?: true;
  without?: readonly string[];
  oneOf?: Readonly<Record<string, readonly unknown[]>>;
  everySent?: true;
}

/** What the tables read from the log: the animal an exchange introduced, and the Pet fields a request sent. */
export interface LogReading {
  pet(seq: number): LoggedPet | undefined;
  sentFields(seq: number): readonly string[] | undefined;
}
export type ParamsOfEveryJudgment = Readonly<Record<string, Readonly<Record<string, StatedInFull>>>>;

const ERROR_SCHEMA: Record<string, StatedInFull> = { 'json-schema': { oneOf: { schema: ['Error'] } } };
const PET_SCHEMA: Record<string, StatedInFull> = { 'json-schema': { oneOf: { schema: ['Pet'] } } };
const REMAINING_ZERO: Record<string, StatedInFull> = { 'rate-header-is': { oneOf: { field: ['remaining'], oneOf: [[0]] } } };
const NEVER_5XX: Record<string, StatedInFull> = { 'status-below': { oneOf: { limit: [500] } } };
/** A list judged to hold at most `max` items (and exactly that many, where `min` may be given too). */
/** createPet's echo compared on every field the request sent (a forger may not drop the one that differs). */
const ECHOES_ALL_SENT: Record<string, StatedInFull> = { 'pet-echoes-sent': { everySent: true } };
const listLength = (max: number, min: readonly unknown[] = [null]): Record<string, StatedInFull> => ({ 'list-length': { oneOf: { max: [max], min } } });

export const PARAMS_OF_EVERY_JUDGMENT: ParamsOfEveryJudgment = {
  'AUTH-009': { 'headers-present': { oneOf: { names: [['WWW-Authenticate']] } } },
  'CON-001': { 'pet-is': { keys: ['idFrom'], whole: true, without: ['statusIfAnswered'] } },
  // A pass judges its list once, by both bounds (a full store ends the test untested instead).
  'CON-003': { 'list-count-of-id': { keys: ['idFrom'], oneOf: { max: [1], min: [1] } } },
  // The held connection's keep-alive lists: a valid list is never a 5xx.
  'CON-004': NEVER_5XX,
  // Its status is compared only when the answer has one (the default on creation is open, SCH-007).
  'DEP-001': { 'pet-is': { keys: ['idFrom'], whole: true } },
  'ERR-001': ERROR_SCHEMA,
  'ERR-003': { 'field-non-empty': { oneOf: { field: ['code', 'message'] } } },
  'ERR-005': ERROR_SCHEMA,
  // The create's own pet-is compares with what it wrote; the read-back's names that create (idFrom).
  'INT-001': { 'pet-is': { keys: ['categoryId'] } },
  'INT-002': ERROR_SCHEMA,
  'INT-004': { 'pet-is': { keys: ['idFrom', 'name'] } },
  'LIM-001': listLength(1),
  'LIM-002': listLength(100, [100, null]),
  // The count of what the store holds is read from the list of limit=100 before it (countFrom).
  'LIM-003': { 'list-length': { keys: ['countFrom'], oneOf: { max: [20], min: [null] } } },
  // 200 to an out-of-range limit: at most 100, then the bounds of the clamped and the default pages.
  'LIM-004': { ...ERROR_SCHEMA, 'list-length': { oneOf: { max: [100, 20], min: [null, 1, 20] } } },
  'LIM-005': listLength(20),
  'LIM-006': { 'list-count-of-id': { keys: ['idFrom'], oneOf: { min: [1], max: [null] } } },
  'LIM-007': { ...ERROR_SCHEMA, ...listLength(0) },
  'LIM-009': { ...ERROR_SCHEMA, ...listLength(1, [1]), 'pet-is': { keys: ['idFrom'] } },
  'RATE-001': { 'headers-present': { oneOf: { names: [['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']] } } },
  'RATE-004': REMAINING_ZERO,
  'RATE-005': { 'headers-present': { oneOf: { names: [['Retry-After']] } } },
  'RATE-006': REMAINING_ZERO,
  'RATE-011': { 'status-other-than': { oneOf: { status: [429] } } },
  'SCH-001': { 'json-schema': { oneOf: { schema: ['Pets'] } } },
  'SCH-002': PET_SCHEMA,
  'SCH-003': PET_SCHEMA,
  'SCH-005': ECHOES_ALL_SENT,
  'SCH-006': ECHOES_ALL_SENT,
  'SCH-004': { 'media-type': { oneOf: { name: ['Content-Type'], value: ['application/json'] } } },
  'SCH-008': { 'json-schema': { oneOf: { schema: ['Pet', 'Error'] } }, 'pet-echoes-sent': { oneOf: { fields: [['name', 'categoryId', 'status']] } } },
  'STA-004': ERROR_SCHEMA,
  'STA-005': ERROR_SCHEMA,
  'STA-006': ERROR_SCHEMA,
  'STA-007': ERROR_SCHEMA,
  'STA-008': NEVER_5XX,
  'STA-011': ERROR_SCHEMA,
  'STA-013': ERROR_SCHEMA,
  'STA-014': { 'pet-echoes-sent': { oneOf: { fields: [['name']] } } },
  'STA-016': { 'pet-is': { keys: ['idFrom'] } },
  'STA-017': { ...NEVER_5XX, ...listLength(1) },
};

/**
 * The statuses a test of the requirement may allow, in a status judgment or a `status-in` rule: the
 * union of what every authentic test allows. A judgment that allows another (the 500 the server
 * answered, a 200 where a 201 is required) is refused.
 */
export const STATUSES_ALLOWED: Readonly<Record<string, readonly number[]>> = {
  'AUTH-001': [401],
  'AUTH-002': [401],
  'AUTH-003': [401],
  'AUTH-004': [401],
  'AUTH-005': [401],
  'AUTH-006': [401],
  'AUTH-007': [200, 201],
  'AUTH-008': [401],
  'AUTH-010': [200],
  'CON-001': [200],
  'CON-003': [200],
  'DEP-001': [200],
  'INT-001': [200, 201],
  'INT-002': [400],
  'INT-004': [200, 404],
  'INT-005': [201],
  'INT-006': [200, 404],
  'LIM-001': [200],
  'LIM-002': [200],
  'LIM-003': [200],
  'LIM-004': [200, 400],
  'LIM-005': [200],
  'LIM-006': [200],
  'LIM-007': [200, 400],
  'LIM-008': [200],
  'LIM-009': [200, 400],
  'RATE-007': [200],
  'SCH-001': [200],
  'SCH-002': [201],
  'SCH-003': [200],
  'SCH-005': [201, 400],
  'SCH-006': [200, 201],
  'SCH-007': [201],
  'SCH-008': [201, 400],
  'STA-001': [201],
  'STA-002': [200],
  'STA-003': [200],
  'STA-004': [404],
  'STA-005': [400],
  'STA-006': [400],
  'STA-007': [400],
  'STA-011': [400, 415],
  'STA-012': [400, 404],
  'STA-013': [400],
  'STA-014': [201],
  'STA-016': [200],
  'STA-017': [200],
  'STA-018': [201],
  'VER-001': [200],
};

export interface StatedParamsTables {
  paramsOfEveryJudgment?: ParamsOfEveryJudgment;
  statusesAllowed?: Readonly<Record<string, readonly number[]>>;
}

/**
 * The first judgment of a passed test that states less, or expects other, than every authentic test of
 * its requirement (see the tables above), said for the report; undefined when none. `log` reads what an
 * exchange of the log holds, undefined when it does not hold it readably (nothing is then asked of it).
 */
export function weakenedJudgment(requirementId: string, judgments: readonly Judgment[], log: LogReading, tables: StatedParamsTables = {}): string | undefined {
  const allowedHere = (tables.statusesAllowed ?? STATUSES_ALLOWED)[requirementId];
  const byRule = (tables.paramsOfEveryJudgment ?? PARAMS_OF_EVERY_JUDGMENT)[requirementId] ?? {};
  for (const judgment of judgments) {
    if (judgment.kind === 'check') continue;
    const at =
      judgment.kind === 'status' ? `the status judgment of #${judgment.exchange}` : `the ${judgment.rule} judgment of #${judgment.exchanges.join(', #')}`;
    const allowed = judgment.kind === 'status' ? judgment.allowed : judgment.rule === 'status-in' ? judgment.params.allowed : undefined;
    if (allowedHere && Array.isArray(allowed)) {
      const other = allowed.filter((status) => !allowedHere.includes(status as number));
      if (other.length > 0) return `${at} allows ${other.join(' and ')}, which no test of ${requirementId} allows (${allowedHere.join(', ')})`;
    }
    if (judgment.kind !== 'rule') continue;
    const full = byRule[judgment.rule];
    if (full) {
      const problem = understated(judgment.params, full, log, requirementId) ?? unsentLeftOut(judgment.params, full, judgment.exchanges, log, requirementId);
      if (problem) return `${at} ${problem}`;
    }
  }
  return undefined;
}

function understated(params: Record<string, unknown>, full: StatedInFull, log: LogReading, requirementId: string): string | undefined {
  const absent = (full.keys ?? []).filter((key) => params[key] === undefined);
  if (absent.length > 0) return `gives no ${absent.join(' or ')}, where every passed ${requirementId} test gives it`;
  const loosened = (full.without ?? []).filter((key) => params[key] !== undefined);
  if (loosened.length > 0) return `gives ${loosened.join(' and ')}, which no passed ${requirementId} test gives`;
  for (const [key, values] of Object.entries(full.oneOf ?? {})) {
    const given = stringifyJson(params[key] ?? null);
    if (!values.some((value) => stringifyJson(value) === given)) {
      return `gives ${key} ${given}, where every ${requirementId} test gives ${values.map((value) => stringifyJson(value)).join(' or ')}`;
    }
  }
  const source = typeof params.idFrom === 'number' ? log.pet(params.idFrom) : undefined;
  const left = full.whole && source ? PET_FIELDS.filter((field) => source[field] !== undefined && params[field] === undefined) : [];
  if (left.length > 0) return `leaves out the ${left.join(' and ')} #${String(params.idFrom)} holds, where every passed ${requirementId} test compares it`;
  return undefined;
}

/** A judgment that compares fewer fields than its requests sent (see `everySent`), said; undefined otherwise. */
function unsentLeftOut(
  params: Record<string, unknown>,
  full: StatedInFull,
  exchanges: readonly number[],
  log: LogReading,
  requirementId: string,
): string | undefined {
  if (!full.everySent) return undefined;
  const compared = Array.isArray(params.fields) ? params.fields : [];
  for (const seq of exchanges) {
    const left = (log.sentFields(seq) ?? []).filter((field) => !compared.includes(field));
    if (left.length > 0) return `leaves out the ${left.join(' and ')} #${seq} sent, where every passed ${requirementId} test compares what it sent`;
  }
  return undefined;
}
