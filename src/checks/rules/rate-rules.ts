import {
  DIGITS,
  RATE_LIMIT_FIELDS as RATE_FIELDS,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_PAST_RESET_MS,
  parseHttpDate,
  strictInteger,
} from '../../text/header-values.ts';
import { readJson } from '../../text/json.ts';
import { CHECKS, runChecks } from '../registry.ts';
import type { CheckContext } from '../check-types.ts';
import { type JudgmentRule, type RuleExchange, bad, fails, holds, numberParam } from './rule-kit.ts';

/** How far apart a 429's Retry-After and its X-RateLimit-Reset − now may be (RATE-006). */
export const RETRY_RESET_AGREEMENT_MS = 2_000;
/** Reset values this close (seconds) belong to the same window; a sliding window moves it a little. */
export const SAME_WINDOW_S = 1;

/** One response's rate-limit headers, read strictly: a value that is not plain digits is undefined. */
export interface RateReading {
  limit: number | undefined;
  remaining: number | undefined;
  /** Unix seconds, as sent. */
  reset: number | undefined;
  /** Epoch ms the response arrived, by the suite's clock. */
  arrivedAt: number;
  headers: Readonly<Record<string, string>>;
}

export function rateReadingOf(e: Pick<RuleExchange, 'headers' | 'startedAt' | 'durationMs'>): RateReading {
  return {
    limit: strictInteger(e.headers[RATE_LIMIT_HEADERS.limit.wire]),
    remaining: strictInteger(e.headers[RATE_LIMIT_HEADERS.remaining.wire]),
    reset: strictInteger(e.headers[RATE_LIMIT_HEADERS.reset.wire]),
    arrivedAt: e.startedAt + (e.durationMs ?? 0),
    headers: e.headers,
  };
}

export type Step = 'decreased' | 'rolled-over' | 'not-decreased' | 'reset-went-back' | 'unreadable';

/** What happened to Remaining between two consecutive responses of one key. */
export function stepOf(before: Omit<RateReading, 'headers' | 'arrivedAt'>, after: Omit<RateReading, 'headers' | 'arrivedAt'>): Step {
  if (before.remaining === undefined || after.remaining === undefined || before.reset === undefined || after.reset === undefined) {
    return 'unreadable';
  }
  // A window only ever moves forward: a Reset earlier than the one just named is not a new window.
  if (after.reset < before.reset - SAME_WINDOW_S) return 'reset-went-back';
  if (after.reset > before.reset + SAME_WINDOW_S) return 'rolled-over';
  return after.remaining < before.remaining ? 'decreased' : 'not-decreased';
}

/** "Now" as the target's clock has it: its Date header when that parses, else the suite's arrival time. */
export function targetNow(reading: RateReading): number {
  const date = reading.headers.date;
  return (date === undefined ? undefined : parseHttpDate(date, reading.arrivedAt)) ?? reading.arrivedAt;
}

/** The wait a Retry-After asks for, in ms; undefined when absent or neither delay-seconds nor an HTTP-date. */
export function retryAfterMs(reading: RateReading): number | undefined {
  const raw = reading.headers['retry-after']?.trim();
  if (raw === undefined) return undefined;
  if (DIGITS.test(raw)) return Number(raw) * 1000;
  const date = parseHttpDate(raw, reading.arrivedAt);
  return date === undefined ? undefined : Math.max(0, date - targetNow(reading));
}

/** The wait until X-RateLimit-Reset, in ms by the target's clock; undefined without a usable Reset. */
export function resetMs(reading: RateReading): number | undefined {
  return reading.reset === undefined ? undefined : reading.reset * 1000 - targetNow(reading);
}

/**
 * The most X-RateLimit-Remaining fell in one step of a key's consecutive served responses, 1 at least: a
 * fall of more than one per request is someone else spending the key (a rise is a new window, skipped).
 */
export function remainingSlack(readings: ReadonlyArray<{ remaining: number | undefined }>): number {
  let slack = 1;
  for (let i = 1; i < readings.length; i += 1) {
    const [before, after] = [readings[i - 1]?.remaining, readings[i]?.remaining];
    if (before !== undefined && after !== undefined && after <= before) slack = Math.max(slack, before - after);
  }
  return slack;
}

/** A reading's status and the counters the isolation of two keys is judged by. */
export interface KeyReading {
  status: number;
  remaining: number | undefined;
  reset: number | undefined;
}

/**
 * What one paired observation says (RATE-011): a key read, `burst` requests on another key, the key read
 * again. `own`: it fell by at most its own request in the same window; `shared`: by its own and at least
 * the burst, or a 429 when the first reading said requests were left; `unclear`: the window turned, a
 * header was unreadable, or it fell by less than the burst (someone else spending the key explains that).
 */
export function keyIsolationOf(before: KeyReading, after: KeyReading, burst: number): 'own' | 'shared' | 'unclear' {
  if (before.status !== 200 || before.remaining === undefined || before.reset === undefined) return 'unclear';
  if (after.reset === undefined || Math.abs(after.reset - before.reset) > SAME_WINDOW_S) return 'unclear';
  if (after.status === 429) return before.remaining >= 1 ? 'shared' : 'unclear';
  if (after.status !== 200 || after.remaining === undefined) return 'unclear';
  const drop = before.remaining - after.remaining;
  if (drop <= 1) return 'own';
  return burst > 0 && drop - 1 >= burst ? 'shared' : 'unclear';
}

/** A wait for a reader: hours, minutes or seconds. */
export function duration(ms: number): string {
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(1)} h`;
  if (ms >= 60_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 1000).toFixed(1)} s`;
}

const show = (e: RuleExchange, wire: string) => e.headers[wire] ?? '(none)';
/** "429 with Remaining 0, Reset 1767225600": what a reader needs to follow a window. */
export const describe = (e: RuleExchange) =>
  `${e.status} with Remaining ${show(e, RATE_LIMIT_HEADERS.remaining.wire)}, Reset ${show(e, RATE_LIMIT_HEADERS.reset.wire)}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What a check of the registry reads of an exchange, as rejudge builds it from the log. */
function checkContextOfRule(e: RuleExchange, contract: CheckContext['contract']): CheckContext {
  const context: CheckContext = {
    operationId: e.operationId,
    method: e.method ?? 'GET',
    url: e.url,
    status: e.status,
    headers: e.headers,
    text: e.text,
    body: undefined,
    isJson: false,
    contract,
    now: Math.round(e.startedAt + (e.durationMs ?? 0)),
  };
  if (e.text.length === 0) return context;
  const reading = readJson(e.text);
  return reading.ok ? { ...context, body: reading.value, isJson: true } : { ...context, jsonError: reading.reason };
}

/** The registry's checks a rule can run again from the log (not those that read the connections' history). */
const LOGGED_CHECKS = CHECKS.filter((c) => c.name !== 'connection-kept-open' && c.name !== 'nothing-unasked');

/** A rule on one key's consecutive responses: no step between two of them is `bad`. */
function stepRule(name: 'rate-remaining-falls' | 'rate-reset-never-back', expected: string, bad: Step): JudgmentRule {
  return {
    name,
    readsBody: false,
    judge: () => holds(expected),
    judgeAll(exchanges) {
      for (let i = 1; i < exchanges.length; i += 1) {
        const [before, after] = [exchanges[i - 1] as RuleExchange, exchanges[i] as RuleExchange];
        if (stepOf(rateReadingOf(before), rateReadingOf(after)) === bad)
          return { ...fails(expected, `${describe(before)} → ${describe(after)}`), failedAt: i, alsoAt: i - 1 };
      }
      return holds(expected);
    },
  };
}

/** Rules on rate-limit headers, one response or a key's consecutive responses, read from the log. */
export const RATE_RULES: readonly JudgmentRule[] = [
  {
    name: 'rate-header-is',
    readsBody: false,
    judge(e, params) {
      const field = params.field;
      if (field !== 'limit' && field !== 'remaining' && field !== 'reset') return bad('rate-header-is');
      const allowed = Array.isArray(params.oneOf) ? params.oneOf.filter((v): v is number => typeof v === 'number') : undefined;
      const min = numberParam(params.min);
      if (!allowed?.length && min === undefined) return bad('rate-header-is');
      const { wire, display } = RATE_LIMIT_HEADERS[field];
      const value = strictInteger(e.headers[wire]);
      const expected = allowed?.length ? `${display} ${allowed.join(' or ')}` : `${display} at least ${min}`;
      const ok = value !== undefined && (allowed?.length ? allowed.includes(value) : value >= (min ?? 0));
      return ok ? holds(expected) : fails(expected, `${display}: ${e.headers[wire] ?? '(none)'} on a ${e.status}`);
    },
  },
  {
    name: 'rate-headers-integers',
    readsBody: false,
    judge(e) {
      const { limit, remaining, reset } = rateReadingOf(e);
      const expected = 'X-RateLimit-Limit, -Remaining and -Reset single non-negative integers, Remaining ≤ Limit';
      const shown = RATE_FIELDS.map((f) => `${RATE_LIMIT_HEADERS[f].display} ${JSON.stringify(e.headers[RATE_LIMIT_HEADERS[f].wire] ?? null)}`).join(', ');
      return limit !== undefined && remaining !== undefined && reset !== undefined && remaining <= limit ? holds(expected) : fails(expected, shown);
    },
  },
  {
    name: 'retry-after-syntax',
    readsBody: false,
    judge(e) {
      const raw = e.headers['retry-after'];
      const expected = 'no Retry-After, or one holding delay-seconds or an HTTP-date (RFC 9110 §10.2.3)';
      const ok = raw === undefined || DIGITS.test(raw) || parseHttpDate(raw, e.startedAt) !== undefined;
      return ok ? holds(expected) : fails(expected, `Retry-After ${JSON.stringify(raw)}`);
    },
  },
  {
    name: 'retry-after-agrees-reset',
    readsBody: false,
    judge(e) {
      const reading = rateReadingOf(e);
      const retry = retryAfterMs(reading);
      const reset = resetMs(reading);
      const expected = `Retry-After within ${RETRY_RESET_AGREEMENT_MS / 1000} s of X-RateLimit-Reset − now`;
      if (retry === undefined || reset === undefined) return fails(expected, `Retry-After ${show(e, 'retry-after')}, Reset ${show(e, 'x-ratelimit-reset')}`);
      return Math.abs(retry - reset) <= RETRY_RESET_AGREEMENT_MS
        ? holds(expected)
        : fails(expected, `Retry-After ${show(e, 'retry-after')} (${seconds(retry)}) but Reset ${reading.reset} is ${seconds(reset)} away`);
    },
  },
  {
    name: 'retry-after-within-reset',
    readsBody: false,
    judge(e) {
      const reading = rateReadingOf(e);
      const retry = retryAfterMs(reading);
      const reset = resetMs(reading);
      const expected = `Retry-After ending no more than ${duration(RETRY_AFTER_PAST_RESET_MS)} after X-RateLimit-Reset (the time "at which the limit resets")`;
      if (retry === undefined || reset === undefined) return fails(expected, `Retry-After ${show(e, 'retry-after')}, Reset ${show(e, 'x-ratelimit-reset')}`);
      if (retry <= Math.max(0, reset) + RETRY_AFTER_PAST_RESET_MS) return holds(expected);
      return fails(
        expected,
        `Retry-After ${show(e, 'retry-after')} asks for ${duration(retry)}, but X-RateLimit-Reset ${reading.reset} is ${duration(Math.max(0, reset))} away: ` +
          'the two headers contradict each other (a Retry-After in milliseconds?)',
      );
    },
  },
  {
    name: 'rate-key-unmoved',
    readsBody: false,
    judge: () => holds("a key's X-RateLimit-Remaining moved by its own request only"),
    judgeAll(exchanges, params) {
      const burst = numberParam(params.burst);
      const [before, after] = exchanges;
      if (burst === undefined || exchanges.length !== 2 || !before || !after) return bad('rate-key-unmoved');
      const expected = `a key's X-RateLimit-Remaining moved by its own request only, with ${burst} requests on another key in between`;
      const kind = keyIsolationOf({ ...rateReadingOf(before), status: before.status }, { ...rateReadingOf(after), status: after.status }, burst);
      return kind === 'own' ? holds(expected) : { ...fails(expected, `${describe(before)} → ${describe(after)} (${kind})`), failedAt: 1, alsoAt: 0 };
    },
  },
  stepRule('rate-remaining-falls', 'X-RateLimit-Remaining lower after each request while Reset stays the same', 'not-decreased'),
  stepRule('rate-reset-never-back', 'X-RateLimit-Reset that stays or moves forward (a window never resets earlier)', 'reset-went-back'),
  {
    name: 'no-finding',
    readsBody: true,
    judge(e, params, contract) {
      const requirement = params.requirement;
      if (typeof requirement !== 'string' || !/^[A-Z]+-\d{3}$/.test(requirement)) return bad('no-finding');
      const finding = runChecks(checkContextOfRule(e, contract), LOGGED_CHECKS).find((f) => f.requirementId === requirement);
      return finding ? fails(finding.expected, finding.actual) : holds(`no finding of ${requirement} by the always-on checks`);
    },
  },
];
