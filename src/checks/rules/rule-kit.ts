import type { Contract } from '../../contract/index.ts';
import { readJson, toBigInt } from '../../text/json.ts';
import type { RuleName } from './rule-params.ts';
import type { WireRecord } from '../../text/wire-record.ts';

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
  /** The URL the request was sent to, as recorded. */
  url: string;
  /** The operation the request was sent for, as recorded (listPets, createPet, getPet). */
  operationId: string | undefined;
  /** Epoch milliseconds when the request was sent. */
  startedAt: number;
  /** How long the answer took, in ms: it arrived at startedAt + durationMs. */
  durationMs?: number;
  /** The request's method, as recorded. */
  method?: string;
  /** The log cut the body, or may not hold it exactly (a live response is whole; an exchange looked up is as recorded). */
  bodyCut?: boolean;
  /** A list the log cut: how many items the whole list held, as recorded. */
  items?: number;
  /** The framing probe's: what it heard after the response (bytes nobody asked for, a close). */
  heardAfter?: { bytes: number; closed: boolean };
  /** A raw probe's record of the wire: the bytes written and read, the connection, how the reading ended. */
  wire?: WireRecord;
}

/** Another exchange of the log, by its number: where a rule reads a value the test learnt from it. */
export type ExchangeLookup = ((seq: number) => RuleExchange | undefined) & {
  /**
   * Every pet the run's key added, in every file (the run's global sequence of creates): from the log's
   * createPet 201s when re-judging, from the workers' shared ledger when the test runs. `unreadable`: a
   * create the log holds whose Pet it does not keep whole, so no list can be judged complete against it.
   */
  addedPets?: () => { pets: readonly AddedPetRecord[]; unreadable: ReadonlyArray<{ seq: number; answeredAt: number; origin?: string }> };
};

/** A pet the run added: its id, the status its createPet answered, and when that answer arrived (epoch ms). */
export interface AddedPetRecord {
  id: bigint;
  status: string | undefined;
  answeredAt: number;
  /**
   * The origin its createPet was sent to, when the creates come from a log that may join several
   * targets: the shards of a merged run of the embedded reference each test their own store.
   */
  origin?: string;
}

export interface RuleResult {
  holds: boolean;
  /** What the rule requires, and what the exchange(s) gave: short phrases for the failure. */
  expected: string;
  actual: string;
}

export interface JudgmentRule {
  name: RuleName;
  /** Reads a body (response or request): not re-evaluated on a body the log cut or may not hold exactly. */
  readsBody: boolean;
  /**
   * Judges raw exchanges (the framing probe's, CON-004's second HTTP stack's) as their records hold them;
   * no other rule and no always-on check reads a raw exchange.
   */
  judgesRaw?: true;
  /** Judges a raw exchange that got no whole answer by its record of the wire (a close, a time-out: HTTP-002 allows a close). */
  judgesUnanswered?: true;
  /** Reads every create of the run (ExchangeLookup.addedPets), not only the exchanges it names. */
  readsRunCreates?: true;
  /** An exchange whose cut body the rule still judges (it skips what it cannot read), though it reads bodies. */
  judgesCut?(exchange: RuleExchange): boolean;
  /** Judges one exchange; a judgment naming several holds when the rule holds on each. */
  judge(exchange: RuleExchange, params: Record<string, unknown>, contract: Contract, lookup: ExchangeLookup): RuleResult;
  /**
   * A rule across exchanges (ids distinct): judges the exchanges a judgment names together, after `judge`
   * held on each; `failedAt` names the exchange that breaks it, `alsoAt` an earlier one it contradicts.
   */
  judgeAll?(exchanges: readonly RuleExchange[], params: Record<string, unknown>, lookup: ExchangeLookup): RuleResult & { failedAt?: number; alsoAt?: number };
}

export const holds = (expected: string, actual = ''): RuleResult => ({ holds: true, expected, actual });
export const fails = (expected: string, actual: string): RuleResult => ({ holds: false, expected, actual });
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const numberParam = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
export const shown = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);
export const describeBody = (e: RuleExchange) => (e.text === '' ? 'an empty body' : e.isJson ? shown(e.text) : `a body that is not JSON: ${shown(e.text)}`);
export const bad = (rule: string) => fails(`valid params for ${rule}`, 'params this rule cannot read');

export function arrayBody(e: RuleExchange): unknown[] | undefined {
  return e.isJson && Array.isArray(e.body) ? e.body : undefined;
}

export function sentBody(e: RuleExchange): Record<string, unknown> | undefined {
  if (e.requestText === undefined) return undefined;
  const reading = readJson(e.requestText);
  return reading.ok && isObject(reading.value) ? reading.value : undefined;
}

/** Equal as JSON values, integers compared exactly (a bigint and a number of one value are equal). */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = toBigInt(a);
  const y = toBigInt(b);
  if (x !== undefined || y !== undefined) return x !== undefined && x === y;
  return a === b;
}

/** A Pet as the suite reads one (src/model/pets.ts): an integer id and categoryId, a string name. */
export function isPetShaped(value: unknown): value is Record<string, unknown> {
  return isObject(value) && toBigInt(value.id) !== undefined && toBigInt(value.categoryId) !== undefined && typeof value.name === 'string';
}

/**
 * The id a test learnt from an earlier exchange (`idFrom`: its number), read from that exchange's response
 * as the harness read it: a Pet's id (createPet's 201), or the first Pet of a list (an existing pet in
 * read-only mode). Never a number the report states: a forged id makes the rule fail, not hold.
 */
export function idFrom(params: Record<string, unknown>, lookup: ExchangeLookup): { id: bigint } | { failure: RuleResult } | undefined {
  const seq = params.idFrom;
  if (typeof seq !== 'number' || !Number.isInteger(seq)) return undefined;
  const source = lookup(seq);
  const expected = `the id of the animal #${seq} answered`;
  if (!source) return { failure: fails(expected, `#${seq} is not an exchange of the log`) };
  const id = introducedPetId(source);
  if (id === undefined) return { failure: fails(expected, `#${seq} answered ${source.status} with ${describeBody(source)}`) };
  return { id };
}

/** The id of the animal a 2xx introduced, as the harness reads it: its Pet's, or the first Pet of its list. */
export function introducedPetId(e: Pick<RuleExchange, 'status' | 'body'>): bigint | undefined {
  if (e.status < 200 || e.status > 299) return undefined;
  const pet = Array.isArray(e.body) ? e.body.find(isPetShaped) : isPetShaped(e.body) ? e.body : undefined;
  return pet ? toBigInt(pet.id) : undefined;
}
