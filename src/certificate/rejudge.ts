import type { Catalog } from '../catalog/catalog.ts';
import { CHECKS, runChecks } from '../checks/registry.ts';
import type { Check, Finding } from '../checks/check-types.ts';
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
import { findingFailures } from '../report/failure-evidence.ts';
import type { ConformanceReport, FailureDetail, OverallVerdict, RequirementResult, TestOutcome, TestSummary } from '../report/report-types.ts';
import type { RunInfo } from '../report/run-info.ts';
import { type RecordedEntry, bodyReading, checkContextOf, readHarEntries } from './rejudge-har.ts';
import { logIntegrityProblems } from './log-integrity.ts';
import { type LoggedCreates, loggedCreates } from './run-creates.ts';
import { type JudgedByEveryPass, type JudgedOnEveryExchange, missingJudgment, unjudgedExchange } from './coverage.ts';
import { unnamedExchange } from './named-exchanges.ts';
import { unplannedLimit } from './plan-limits.ts';
import { type LogReading, type StatedParamsTables, weakenedJudgment } from './stated-params.ts';
import { rederive } from './rederive.ts';
import { requestShortfall } from './request-counts.ts';
import { countDifferences, timingDifferences } from './log-counts.ts';

/**
 * Checks that read the response body: on a body cut for the report (or not exactly recorded) they are not
 * re-run. Every other check of the registry reads the status and headers only. A test holds every check
 * of the registry to one of the two lists, so a new check is classified when it is added.
 */
export const BODY_CHECKS: ReadonlySet<string> = new Set([
  'json-content-type',
  'response-schema',
  'error-envelope',
  'error-body-on-429',
  'error-status-matches',
  'error-fields-non-empty',
]);
/**
 * The requirements whose check judgments (ctx.check) still stand on their exchanges being in the log:
 * none. The framing probe's and HTTP-002's are rules on the bytes the log keeps (`_wire`); any check
 * judgment leaves its test unproven: its condition is not in the log.
 */
export const CHECKS_TAKEN_AS_RECORDED: ReadonlySet<string> = new Set();
/**
 * Checks that read what the log does not record: none. HTTP-001's connection checks read the entry's
 * `_connection` (stray bytes on a pooled connection, a retry after a drop), as they read it live.
 */
export const UNRECORDED_CHECKS: ReadonlySet<string> = new Set();

/**
 * What rejudge holds a run's tests to: the judgments every pass of a requirement makes, and those made
 * on every exchange of an operation (src/certificate/coverage.ts; this suite's tables by default). The
 * project's own tests give empty ones for runs they make up, whose tests are not this suite's and
 * judge by a placeholder.
 */
export interface RejudgeOptions extends StatedParamsTables {
  judgedByEveryPass?: JudgedByEveryPass;
  judgedOnEveryExchange?: JudgedOnEveryExchange;
  everyExchangeNamed?: readonly string[];
  /** The fewest requests a passed test of a requirement sends (src/certificate/request-counts.ts). */
  requestsOfEveryPass?: Readonly<Record<string, number>>;
}

/** What re-judging a report from its exchange log gives. */
export interface Rejudgement {
  /** Every place the report claims something the log does not give, naming the test or requirement. */
  differences: string[];
  /** Passed tests the log does not prove (no judged exchange, a judgment it fails, an exchange not logged). */
  refusedTests: string[];
  /** The run's verdict decided from the re-judged outcomes. */
  verdict: OverallVerdict | 'unknown';
  /** What was re-computed, and what was taken as recorded. */
  stats: RejudgeStats;
}

export interface RejudgeStats {
  entries: number;
  /** Entries every check ran on again. */
  checkedWhole: number;
  /** Entries whose body checks were not re-run: the body was cut or not exactly recorded. */
  headersOnly: number;
  /** Entries no check ran on again: the framing probe's, summarised ones, transport failures. */
  notChecked: number;
  /** Of those, summarised: their headers and body left out (a passing test's evidence outside --certify). */
  summarised: number;
  /** Judgments of passed tests re-evaluated: statuses compared, rules evaluated, exchanges found. */
  judgments: number;
  /** Of those, rule judgments (ctx.judge) evaluated again on their entries. */
  rules: number;
  /** Rule judgments on summarised entries (a report directory's log, which verify and the merge refuse): taken as recorded. */
  rulesTakenAsRecorded: number;
  /** Rule judgments on entries the log does not keep whole (a body cut, no answer): their tests are unproven. */
  rulesUnproven: number;
  /** Check judgments (ctx.check): only their exchanges are found, the condition is taken as recorded. */
  checks: number;
}

/**
 * Re-judges a report from its exchange log alone, with this suite's checks and verdict functions:
 * (a) every always-on check is run again on every logged response, and the findings must be exactly the
 * ones the report records; (b) every judgment a test recorded as data is evaluated again on the entry it
 * names; (c) a passed test with no logged exchange that proves it, or with one that fails its judgment,
 * is refused; (d) request counts per test and per run, the status coverage, and the timing must agree with
 * the log; (e) every requirement and the run's verdict are decided again from the re-judged outcomes.
 */
export function rejudge(report: ConformanceReport, har: unknown, catalog: Catalog, contract: Contract, options: RejudgeOptions = {}): Rejudgement {
  const differences: string[] = [];
  const stats: RejudgeStats = {
    entries: 0,
    checkedWhole: 0,
    headersOnly: 0,
    notChecked: 0,
    summarised: 0,
    judgments: 0,
    rules: 0,
    rulesTakenAsRecorded: 0,
    rulesUnproven: 0,
    checks: 0,
  };
  const read = readHarEntries(har);
  if ('problem' in read) return { differences: [read.problem], refusedTests: [], verdict: 'unknown', stats };
  const { entries } = read;
  stats.entries = entries.length;
  const bySeq = new Map<number, RecordedEntry>();
  for (const entry of entries) {
    if (bySeq.has(entry.seq)) differences.push(`HAR entry #${entry.seq} appears twice`);
    bySeq.set(entry.seq, entry);
  }
  const tests = report.requirements.flatMap((r) => r.tests);
  differences.push(...logIntegrityProblems(entries), ...timingDifferences(report, entries), ...countDifferences(report, tests, entries, bySeq));
  const owner = ownerOf(tests);

  // (a) The always-on checks, again, on every response.
  const recomputed = new Map<string, Finding[]>();
  const findingDiffs = new Set<string>();
  const key = (seq: number, check: string, requirementId: string) => `${seq}\u0000${check}\u0000${requirementId}`;
  const recorded = new Map<string, { test: TestSummary; requirementId: string }>();
  for (const test of tests)
    for (const f of test.findings ?? []) recorded.set(key(f.exchange, f.check, f.requirementId), { test, requirementId: f.requirementId });
  const reproduced = new Set<string>();
  for (const entry of entries) {
    const checks = checksFor(entry, stats);
    if (checks.length === 0) continue;
    const test = owner.get(entry.seq);
    for (const finding of runChecks(checkContextOf(entry, contract), checks)) {
      const k = key(entry.seq, finding.check, finding.requirementId);
      reproduced.add(k);
      if (test) recomputed.set(test.id, [...(recomputed.get(test.id) ?? []), finding]);
      if (!recorded.has(k)) {
        differences.push(`${testLabel(test)}: the check ${finding.check} fails ${finding.requirementId} on #${entry.seq}, which the report does not record`);
        findingDiffs.add(finding.requirementId);
      }
    }
  }
  for (const [k, { test, requirementId }] of recorded) {
    if (reproduced.has(k)) continue;
    const [seqText, check] = k.split('\u0000');
    const entry = bySeq.get(Number(seqText));
    const rerun = entry !== undefined && checksFor(entry, undefined).some((c) => c.name === check);
    if (rerun || !entry) {
      differences.push(
        `${testLabel(test)}: the report records ${check} failing ${requirementId} on #${seqText}, which the log ${entry ? 'does not reproduce' : 'does not hold'}`,
      );
      findingDiffs.add(requirementId);
    }
  }

  // (b), (c) The judgments of every passed test, on the entries they name.
  const refused = new Map<string, { test: TestSummary; state: 'failed' | 'skipped'; why: string }>();
  // A file's tests may judge a response another test of the file received (one getPet every test reads).
  const fileExchanges = new Map<string, Set<number>>();
  for (const test of tests) {
    const set = fileExchanges.get(test.file) ?? new Set<number>();
    for (const seq of test.exchanges ?? []) set.add(seq);
    fileExchanges.set(test.file, set);
  }
  const requirementOf = new Map(report.requirements.flatMap((r) => r.tests.map((t) => [t, r.id] as const)));
  const creates = loggedCreates(entries);
  for (const test of tests) {
    if (test.state !== 'passed') continue;
    const verdict = judgeTest(test, requirementOf.get(test) ?? '', bySeq, fileExchanges.get(test.file) ?? new Set(), stats, contract, {
      ...options,
      run: report.run,
      creates,
    });
    if (verdict) refused.set(test.id, { test, ...verdict });
  }
  for (const { test, why } of refused.values()) differences.push(`${test.name}: passed, but ${why}`);

  // (e) Requirements and the run, decided again from the re-judged outcomes.
  const rejudged: ConformanceReport = {
    ...report,
    requirements: report.requirements.map((r) => rejudgedRequirement(r, refused, findingDiffs.has(r.id) ? recomputed : undefined)),
  };
  const { requirementMismatches, verdict } = rederive(rejudged, catalog);
  differences.push(...requirementMismatches.map((m) => `${m} (re-judged from the log)`));
  if (verdict.overall !== report.verdict.overall) differences.push(`the run: states ${report.verdict.overall}, the log gives ${verdict.overall}`);
  return { differences, refusedTests: [...refused.values()].map((r) => r.test.name), verdict: verdict.overall, stats };
}

/** The checks that can run again on this entry (counted into `stats` when given). */
function checksFor(entry: RecordedEntry, stats: RejudgeStats | undefined): readonly Check[] {
  if (entry.raw || entry.summarised || entry.transportError) {
    if (stats) stats.notChecked += 1;
    if (stats && entry.summarised) stats.summarised += 1;
    return [];
  }
  const headersOnly = entry.bodyCut || entry.bodyInexact;
  if (stats) {
    if (headersOnly) stats.headersOnly += 1;
    else stats.checkedWhole += 1;
  }
  return CHECKS.filter((c) => !UNRECORDED_CHECKS.has(c.name) && !(headersOnly && BODY_CHECKS.has(c.name)));
}

/** Why a passed test is not proven by the log, and what it is then: failed (a judgment fails) or untested. */
function judgeTest(
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
    unplannedLimit(requirementId, judgments, bySeq, options.run);
  return missing ? { state: 'skipped', why: missing } : undefined;
}

/** Whether `next` is the client's retry of `dropped` on a fresh connection: the same request, its drop recorded. */
function retriedAfter(dropped: RecordedEntry | undefined, next: RecordedEntry | undefined): boolean {
  if (!dropped || !next?.connection?.droppedBefore || next.transportError) return false;
  return next.method === dropped.method && next.url === dropped.url && next.requestText === dropped.requestText;
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
function ruleExchangeOf(entry: RecordedEntry): RuleExchange {
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
    ...(entry.heardAfter ? { heardAfter: entry.heardAfter } : {}),
    ...(entry.wire ? { wire: entry.wire } : {}),
  };
}

/** The requirement with its refused tests re-stated, and its findings recomputed where they differ. */
function rejudgedRequirement(
  requirement: RequirementResult,
  refused: ReadonlyMap<string, { state: 'failed' | 'skipped'; why: string }>,
  recomputed: ReadonlyMap<string, Finding[]> | undefined,
): RequirementResult {
  const tests = requirement.tests.map((t): TestSummary => {
    const r = refused.get(t.id);
    if (!r) return t;
    const { observed: _o, ...rest } = t;
    return r.state === 'failed'
      ? { ...rest, state: 'failed', failureKind: 'conformance' }
      : { ...rest, state: 'skipped', skipCode: 'precondition', skipReason: `not proven by the exchange log: ${r.why}` };
  });
  const fromTests = requirement.failures.filter((f) => f.origin === 'test');
  const failures: FailureDetail[] = recomputed
    ? [
        ...fromTests,
        ...findingFailures(
          requirement.id,
          [...recomputed].map(([id, findings]) => findingsOutcome(id, findings)),
        ),
      ]
    : requirement.failures;
  return { ...requirement, tests, failures };
}

function findingsOutcome(id: string, findings: readonly Finding[]): TestOutcome {
  return {
    id,
    name: id,
    file: '',
    state: 'passed',
    durationMs: 0,
    errors: [],
    meta: { requirementId: '', level: 'MUST', area: '', findings: [...findings], exchanges: [] },
  };
}

/** Which test sent each exchange. */
function ownerOf(tests: readonly TestSummary[]): Map<number, TestSummary> {
  const owner = new Map<number, TestSummary>();
  for (const test of tests) for (const seq of test.exchanges ?? []) owner.set(seq, test);
  return owner;
}

const testLabel = (test: TestSummary | undefined) => test?.name ?? 'an exchange no test sent';

/** rejudge as one line of `verify`: refused on any difference, naming the tests and requirements. */
export function rejudgeCheck(report: ConformanceReport, har: unknown, catalog: Catalog, contract: Contract, options: RejudgeOptions = {}): BundleCheckLine {
  const result = rejudge(report, har, catalog, contract, options);
  const { stats } = result;
  // A certified run logs every exchange whole: an entry marked summarised would hide it from the checks.
  if (stats.summarised > 0)
    result.differences.unshift(`${stats.summarised} entries of the log are marked summarised: a certified run logs every exchange whole`);
  if (result.differences.length === 0) {
    return {
      ok: true,
      name: 'rejudged',
      detail: `re-judged from ${HAR_NAME}: ${stats.entries} exchanges (${stats.checkedWhole} re-checked whole, ${stats.headersOnly} on their headers, a cut body), ${stats.judgments} judgments; every finding, test and verdict is the log's`,
    };
  }
  // The passes the log does not prove first: they are what a forger edits.
  const refusals = result.differences.filter((d) => d.includes(': passed, but '));
  const ordered = [...refusals, ...result.differences.filter((d) => !refusals.includes(d))];
  const shown = ordered.slice(0, 8).join('; ');
  const more = ordered.length > 8 ? `; and ${ordered.length - 8} more` : '';
  const refused =
    result.refusedTests.length > 0
      ? `The log does not prove: ${result.refusedTests.slice(0, 10).join(', ')}${result.refusedTests.length > 10 ? ', …' : ''}. `
      : '';
  return { ok: false, name: 'rejudged', detail: `${HAR_NAME} does not give what the report claims. ${refused}${shown}${more}.` };
}

const HAR_NAME = 'exchanges.har';

/** The shape of one line of verify (report-checks.ts's BundleCheck). */
interface BundleCheckLine {
  ok: boolean;
  name: string;
  detail: string;
}
