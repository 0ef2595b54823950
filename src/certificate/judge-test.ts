import {
  type ExchangeLookup,
  type JudgmentRule,
  type RuleExchange,
  evaluateRule,
  judgmentRule,
  listsWholeStore,
  loggedPet,
  sentPetFields,
  sentSeqs,
  sourceSeq,
} from '../checks/judgment-rules.ts';
import type { Contract } from '../contract/index.ts';
import type { TestSummary } from '../report/report-types.ts';
import type { RunInfo } from '../report/run-info.ts';
import { type RecordedEntry, bodyReading } from './rejudge-har.ts';
import type { LoggedCreates } from './run-creates.ts';
import { missingJudgment, unjudgedExchange } from './coverage.ts';
import { unnamedExchange } from './named-exchanges.ts';
import { unplannedLimit } from './plan-limits.ts';
import { type LogReading, weakenedJudgment } from './stated-params.ts';
import { caseShortfall, requestShortfall } from './request-counts.ts';
import { familyCases } from './family-counts.ts';
import type { RejudgeOptions, RejudgeStats } from './rejudge-types.ts';

/**
 * One passed test held to the log (rejudge.ts): each judgment it records evaluated again on the entries
 * it names, and what every pass of its requirement must judge and send.
 */

/**
 * The requirements whose check judgments (ctx.check) still stand on their exchanges being in the log:
 * none. The framing probe's and HTTP-002's are rules on the bytes the log keeps (`_wire`); any check
 * judgment leaves its test unproven: its condition is not in the log.
 */
export const CHECKS_TAKEN_AS_RECORDED: ReadonlySet<string> = new Set();

/** Why a passed test is not proven by the log, and what it is then: failed (a judgment fails) or untested. */
export function judgeTest(
  test: TestSummary,
  requirementId: string,
  bySeq: ReadonlyMap<number, RecordedEntry>,
  ofFile: ReadonlySet<number>,
  stats: RejudgeStats,
  contract: Contract,
  options: RejudgeOptions & { run: RunInfo; creates: LoggedCreates },
): { state: 'failed' | 'skipped'; why: string } | undefined {
  const judgments = test.judgments ?? [];
  const own = new Set([...(test.exchanges ?? []), ...(test.shared ?? [])]);
  // A judgment that fails says more than one missing: the exchanges left unjudged are named last.
  const unjudged = unjudgedExchange(requirementId, test.exchanges ?? [], judgments, bySeq, options.judgedOnEveryExchange);
  if (judgments.length === 0 && !unjudged) {
    if ((test.observed ?? 0) > 0) return { state: 'skipped', why: `it states ${test.observed} judgments and records none` };
    if (own.size === 0) return { state: 'skipped', why: 'it sent no request and judged no exchange of the log' };
  }
  // An exchange the client sent and heard no answer to: whatever the test made of it is not in the log
  // (the framing probe's raw exchanges record a closed connection as what they judge, and are not held so).
  // Passed over: a drop the client sent again at once on a fresh connection, as the retry's `_connection` records.
  const sent = test.exchanges ?? [];
  const unanswered = sent.find(
    (seq, i) => bySeq.get(seq)?.transportError === true && bySeq.get(seq)?.raw === false && !retriedAfter(bySeq.get(seq), bySeq.get(sent[i + 1] ?? -1)),
  );
  if (unanswered !== undefined) return { state: 'skipped', why: `its #${unanswered} has no answer: what the test made of it is not in the log` };
  if (test.observed !== undefined && test.observed !== judgments.length)
    return { state: 'skipped', why: `it states ${test.observed} judgments and records ${judgments.length}` };
  for (const judgment of judgments) {
    stats.judgments += 1;
    const seqs = judgment.kind === 'status' ? [judgment.exchange] : judgment.exchanges;
    for (const seq of seqs) {
      if (!own.has(seq) && !ofFile.has(seq)) return { state: 'skipped', why: `a judgment names #${seq}, which no test of its file sent` };
      if (!bySeq.has(seq)) return { state: 'skipped', why: `a judgment names #${seq}, which the log does not hold` };
    }
    if (judgment.kind === 'check') {
      // A check's condition is not in the log: only the framing probe's may still stand on it.
      if (!CHECKS_TAKEN_AS_RECORDED.has(requirementId))
        return { state: 'skipped', why: `it records a check on #${seqs.join(', #')}, whose condition the log does not give` };
      stats.checks += 1;
    }
    if (judgment.kind === 'rule') {
      const unsourced = sourceProblem(judgment, own, ofFile, bySeq, test.exchanges ?? []);
      if (unsourced) return { state: 'skipped', why: unsourced };
      // The requests that sent what a rule compares with (sentFrom): the test's or its file's, logged, not after.
      for (const sent of sentSeqs(judgment.params ?? {})) {
        if ((!own.has(sent) && !ofFile.has(sent)) || !bySeq.has(sent) || sent > Math.max(...judgment.exchanges))
          return {
            state: 'skipped',
            why: `a rule reads what was sent from #${sent}, which is not a request of its file the log holds before the exchanges it judges`,
          };
      }
      const failed = judgeRule(judgment, bySeq, contract, stats, options.creates);
      if (failed) return failed;
    }
    if (judgment.kind === 'status') {
      const status = bySeq.get(judgment.exchange)?.status;
      if (status === undefined || !judgment.allowed.includes(status))
        return { state: 'failed', why: `#${judgment.exchange} answered ${status}, where its judgment allows ${judgment.allowed.join(' or ')}` };
    }
  }
  const log: LogReading = {
    pet: (seq) => {
      const entry = bySeq.get(seq);
      return entry ? loggedPet(ruleExchangeOf(entry)) : undefined;
    },
    sentFields: (seq) => {
      const entry = bySeq.get(seq);
      return entry ? sentPetFields(ruleExchangeOf(entry)) : undefined;
    },
  };
  const missing =
    requestShortfall(requirementId, (test.exchanges ?? []).length, options.run, options.requestsOfEveryPass) ??
    unjudged ??
    missingJudgment(requirementId, judgments, options.judgedByEveryPass) ??
    unnamedExchange(requirementId, test.exchanges ?? [], judgments, bySeq, options.everyExchangeNamed) ??
    weakenedJudgment(requirementId, judgments, log, options) ??
    unplannedLimit(requirementId, judgments, bySeq, options.run) ??
    // Last: a property test's cases short of its profile's, where nothing the log names says more.
    caseShortfall(
      requirementId,
      test,
      (test.exchanges ?? []).length,
      options.run.profile,
      options.casesOfEveryPass,
      familyCases(requirementId, options.run.profile, contract) ?? 0,
    );
  return missing ? { state: 'skipped', why: missing } : undefined;
}

/**
 * Why the exchange a rule reads a value from (idFrom, countFrom) does not hold it: not the test's or its
 * file's, not logged, not sent before the exchanges it judges; or, for a count of the store, not the
 * test's last such list before them (pets are only ever added, so an earlier list may hold fewer).
 */
function sourceProblem(
  judgment: { params: Record<string, unknown>; exchanges: number[] },
  own: ReadonlySet<number>,
  ofFile: ReadonlySet<number>,
  bySeq: ReadonlyMap<number, RecordedEntry>,
  sent: readonly number[],
): string | undefined {
  const params = judgment.params ?? {};
  const source = sourceSeq(params);
  if (source === undefined) return undefined;
  const reads = `a rule reads ${params.idFrom === undefined ? 'a count' : 'its id'} from #${source}`;
  if (!own.has(source) && !ofFile.has(source)) return `${reads}, which no test of its file sent`;
  if (!bySeq.has(source)) return `${reads}, which the log does not hold`;
  const first = Math.min(...judgment.exchanges);
  if (source >= first) return `${reads}, which was not sent before the exchanges it judges`;
  if (params.countFrom === undefined) return undefined;
  const later = sent.find((seq) => {
    const entry = seq > source && seq < first ? bySeq.get(seq) : undefined;
    return entry !== undefined && listsWholeStore(entry);
  });
  return later === undefined ? undefined : `a rule counts the store from #${source}, where the test listed it again later (#${later})`;
}

/**
 * A rule judgment, evaluated again on its entries: failed when it does not hold; a rule this suite does
 * not have leaves the test unproven. So does an entry the log does not keep whole for the rule
 * (summarised, the framing probe's, no answer, or a body the rule reads that was cut or is not exact):
 * what the log cannot decide never stands as recorded (counted in `rulesUnproven`).
 */
function judgeRule(
  judgment: { rule: string; params: Record<string, unknown>; exchanges: number[] },
  bySeq: ReadonlyMap<number, RecordedEntry>,
  contract: Contract,
  stats: RejudgeStats,
  creates: LoggedCreates,
): { state: 'failed' | 'skipped'; why: string } | undefined {
  const rule = judgmentRule(judgment.rule);
  if (!rule) return { state: 'skipped', why: `a judgment names the rule ${JSON.stringify(judgment.rule)}, which this suite does not have` };
  const entries = judgment.exchanges.map((seq) => bySeq.get(seq)).filter((e): e is RecordedEntry => e !== undefined);
  const sources = [sourceSeq(judgment.params ?? {}), ...sentSeqs(judgment.params ?? {})].map((n) => (n === undefined ? undefined : bySeq.get(n)));
  const read = [...entries, ...sources.filter((e): e is RecordedEntry => e !== undefined)];
  // A log with summarised entries (a report directory's, which verify and the merge refuse whole) does
  // not decide what its summarised entries hold: those judgments stand as recorded, and are counted so.
  if (read.some((e) => e.summarised) || (rule.readsRunCreates && creates.summarised)) {
    stats.rulesTakenAsRecorded += 1;
    return undefined;
  }
  const notWhole = read.map((e) => [e, notKeptFor(rule, e)] as const).find(([, why]) => why !== undefined);
  if (notWhole) {
    stats.rulesUnproven += 1;
    return { state: 'skipped', why: `its ${rule.name} judgment reads #${notWhole[0].seq}, ${notWhole[1] ?? ''}: the log cannot decide it` };
  }
  stats.rules += 1;
  const params = typeof judgment.params === 'object' && judgment.params !== null ? judgment.params : {};
  const lookup: ExchangeLookup = Object.assign(
    (n: number) => {
      const entry = bySeq.get(n);
      return entry ? ruleExchangeOf(entry) : undefined;
    },
    { addedPets: () => creates },
  );
  const result = evaluateRule(rule.name, entries.map(ruleExchangeOf), params, contract, lookup);
  if (result.holds) return undefined;
  const entry = entries[result.failedAt ?? 0];
  return {
    state: 'failed',
    why: `#${entry?.seq ?? judgment.exchanges[0]} does not hold the rule ${rule.name}: ${result.expected} expected, ${result.actual}`,
  };
}

/** Why the log does not keep an entry whole for a rule, if it does not. */
function notKeptFor(rule: JudgmentRule, e: RecordedEntry): string | undefined {
  if (e.raw && rule.judgesRaw !== true) return "the framing probe's raw exchange";
  if (e.transportError && !(e.raw && rule.judgesUnanswered)) return 'which has no answer';
  if (rule.readsBody && e.bodyInexact) return 'whose bytes do not match their hash';
  if (rule.readsBody && e.bodyCut && !rule.judgesCut?.(ruleExchangeOf(e))) return 'whose body the log cut';
  return undefined;
}

/** What a rule reads of an entry: the same fields the harness gave it when the test ran. */
export function ruleExchangeOf(entry: RecordedEntry): RuleExchange {
  const reading = entry.text.length === 0 ? undefined : bodyReading(entry);
  return {
    status: entry.status,
    headers: entry.headers,
    text: entry.text,
    body: reading?.ok ? reading.value : undefined,
    isJson: reading?.ok === true,
    requestText: entry.requestText,
    url: entry.url,
    operationId: entry.operationId,
    startedAt: entry.startedAt,
    durationMs: entry.durationMs,
    method: entry.method,
    bodyCut: entry.bodyCut || entry.bodyInexact,
    ...(entry.bodyCut && !entry.bodyInexact && entry.items !== undefined ? { items: entry.items } : {}),
    ...(entry.heardAfter ? { heardAfter: entry.heardAfter } : {}),
    ...(entry.wire ? { wire: entry.wire } : {}),
  };
}

/** Whether `next` is the client's retry of `dropped` on a fresh connection: the same request, its drop recorded. */
function retriedAfter(dropped: RecordedEntry | undefined, next: RecordedEntry | undefined): boolean {
  if (!dropped || !next?.connection?.droppedBefore || next.transportError) return false;
  return next.method === dropped.method && next.url === dropped.url && next.requestText === dropped.requestText;
}
