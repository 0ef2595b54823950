import type fc from 'fast-check';
import type { Requirement } from '../catalog/catalog.ts';
import type { ApiResponse, TargetClient } from '../client/index.ts';
import type { Exchange } from '../client/exchange.ts';
import type { RawExchangeSink } from '../client/framing-probe.ts';
import type { Profile } from '../config/profiles.ts';
import type { Contract } from '../contract/index.ts';
import { ConformanceFailure, HarnessError } from '../errors.ts';
import { bodyExcerpt } from '../client/redact.ts';
import { type ExchangeLookup, type RuleName, type RuleParams, evaluateRule } from '../checks/judgment-rules.ts';
import { recordedRuleExchange, ruleExchangeOf } from './rule-exchanges.ts';
import { isRedactedRecord, recordOnlyFailure, unprovableRule } from './unprovable.ts';
import { type AddedPet, judgedCreates } from './added-pets.ts';
import { type Evidence, evidenceSeqs } from './evidence.ts';
import type { FileRun } from './file-run.ts';
import type { ConformanceMeta, SkipCode } from '../report/test-meta.ts';
import { type SourcedPet, createdPet, toPetRecords } from '../model/pets.ts';
import type { RunContext } from './run-context.ts';
import { type PropertyFamily, runProperty } from './property.ts';
import { hashSeed, seededRandom } from './seeds.ts';
import { petNameLabel, runPetName } from '../arbitraries/pet-names.ts';

/** What a conformance test body receives. */
export interface ConformanceContext {
  readonly client: TargetClient;
  readonly run: RunContext;
  readonly contract: Contract;
  readonly requirement: Requirement;
  /** The test's full title ("RATE-004 a request over the limit …"). */
  readonly title: string;
  /** This test's seed, derived from --seed and the test's title: replays do not depend on order. */
  readonly seed: number;
  readonly random: () => number;
  /** Aborts when the run is interrupted or the test times out: pass it to any wait of the test's own. */
  readonly signal: AbortSignal;
  /**
   * A pet name unique in the run that a server cannot tell from a person's (a realistic name and an HMAC
   * tag of the run's; a label that is more than a requirement id after it). The run's own pets are known
   * by the ledger of added pets, a test's by the name it chose.
   */
  petName(label?: string): string;
  /** A category id the target accepts: from --category-ids, else 1. */
  categoryId(index?: number): bigint;
  /** Property-test cases for this run's profile. */
  numRuns(counts: Readonly<Record<Profile, number>>): number;
  /**
   * Throws the failure of this test's requirement. `evidence` names the response(s) it was decided on:
   * the report shows those exchanges and their curl line (else the test's last exchange, marked so).
   */
  fail(expected: string, actual: string, evidence?: Evidence): never;
  check(condition: boolean, expected: string, actual: string | (() => string), evidence?: Evidence): asserts condition;
  expectStatus(response: ApiResponse, allowed: number | readonly number[], what?: string): void;
  /**
   * Judges the response(s) by a named rule of src/checks/judgment-rules.ts: a pure function of what the
   * exchange log records, evaluated here once and recorded with its params, so `rejudge` evaluates it
   * again on the log. Fails this test's requirement when it does not hold; `what` prefixes the failure.
   * Prefer it to `check` wherever the condition is one of the rules. The evidence is the responses the
   * client read, or exchanges as logged (the framing probe's raw ones, for a rule that judges them).
   */
  judge<R extends RuleName>(rule: R, evidence: Evidence, params: RuleParams[R], what?: string): void;
  /**
   * Creates a pet this test needs; when the target cannot, the test is skipped (STA-001 reports it). The
   * record holds what was sent and the id assigned: compare read-backs with it, never with the echo.
   */
  setupPet(fields?: { name?: string; categoryId?: bigint; status?: string }): Promise<SourcedPet>;
  /**
   * A pet that exists: created (or, in read-only mode, the first one listed). `from` names the exchange
   * its id came from: a rule compares with it by `idFrom`, read from the log, never by a stated id.
   */
  existingPet(): Promise<SourcedPet>;
  /**
   * Every pet the run's key has added so far, in every file (createPet answered 201 with a Pet): ids and
   * the statuses the target acknowledged. Read before a list is asked for, each was stored before it.
   */
  addedPets(): AddedPet[];
  /** Skips this test: the requirement stays untested, for the reason and code given (default precondition). */
  skip(reason: string, code?: SkipCode): never;
  /**
   * Says whether this test's checks could fail at all on what the target holds (a limit is only seen
   * ignored when more animals are stored than the limit). When `condition` is false the test goes on
   * and every check still counts against the target (a failure found wins), but it ends skipped with
   * `reason` and `code` (default precondition), never passed: a check over nothing holds vacuously.
   */
  observable(condition: boolean, reason: string, code?: SkipCode): void;
  /** A line for the report about what the test saw, e.g. that an optional header was not sent. */
  note(text: string): void;
  /**
   * Requests this run may still send, or undefined when it has no ceiling: on the main key, or with
   * `exhaust` on the dedicated exhaustion key, whose requests have a budget of their own, or with
   * `{ planKey }` on that plan key (--plan-key, the embedded Free key), which has its own too.
   */
  budgetLeft(key?: 'main' | 'exhaust' | { planKey: string }): number | undefined;
  /** A client for another key (the embedded exhaustion key), recording into this test. */
  clientWithKey(apiKey: string): TargetClient;
  /**
   * For a probe that writes raw HTTP (the framing probe): claims the run's budget, numbers and records
   * each exchange in this test like the client's, so the report counts and shows them.
   */
  readonly rawExchanges: RawExchangeSink;
  /** Runs `work` and returns what it recorded too: for a measurement other tests of the file reuse. */
  recording<T>(work: () => Promise<T>): Promise<{ value: T; exchanges: Exchange[] }>;
  /** Adds exchanges another test made to this test's evidence (not counted as its requests again). */
  attachShared(exchanges: readonly Exchange[], from: string): void;
  /** Runs a property over generated cases with this test's seed; records the counterexample on failure. */
  property<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<void>,
    options: { numRuns: number; describe?: (value: T) => string; families?: readonly PropertyFamily<T>[] },
  ): Promise<void>;
}

/** The context of one test: what its body calls, each judgment counted and written into its meta. */
export function createContext(
  fileRun: FileRun,
  requirement: Requirement,
  meta: ConformanceMeta,
  title: string,
  signal: AbortSignal,
  replayPath: string | undefined,
): { ctx: ConformanceContext; assertions: () => number } {
  const { run, client, contract } = fileRun;
  const seed = hashSeed(run.seed, title);
  let assertions = 0;
  const fail = (expected: string, actual: string, evidence?: Evidence): never => {
    assertions += 1;
    throw new ConformanceFailure(requirement.id, expected, actual, evidenceSeqs(evidence));
  };
  // What the test observed: each judgment that named the response(s) it was decided on.
  const observe = (evidence: Evidence | undefined, allowed?: readonly number[]) => {
    const seqs = evidenceSeqs(evidence);
    if (seqs.length === 0) return;
    meta.observed = (meta.observed ?? 0) + 1;
    (meta.judgments ??= []).push(allowed ? { kind: 'status', exchange: seqs[0] ?? 0, allowed: [...allowed] } : { kind: 'check', exchanges: seqs });
  };
  let created = 0;
  const ctx: ConformanceContext = {
    client,
    run,
    contract,
    requirement,
    title,
    seed,
    random: seededRandom(seed),
    signal,
    // No mark of the suite in a name (a server could serve the suite's pets apart): a realistic name and a tag of the run's.
    petName: (label = requirement.id) => runPetName(run.runId, `${requirement.id}\n${title}`, ++created, petNameLabel(label)),
    categoryId: (index = 0) => BigInt(run.categoryIds?.[index % run.categoryIds.length] ?? '1'),
    numRuns: (counts) => counts[run.profile],
    fail,
    check(condition, expected, actual, evidence): asserts condition {
      assertions += 1;
      if (!condition) fail(expected, typeof actual === 'function' ? actual() : actual, evidence);
      observe(evidence);
    },
    expectStatus(response, allowed, what) {
      assertions += 1;
      const list = typeof allowed === 'number' ? [allowed] : allowed;
      observe(response, list);
      if (!list.includes(response.status)) {
        const subject = what ? `${what}: ` : '';
        fail(`${subject}status ${list.join(' or ')}`, `${subject}status ${response.status}${briefBody(response)}`, response);
      }
    },
    judge(rule, evidence, params, what) {
      assertions += 1;
      // Responses the client read, or exchanges the framing probe wrote and read byte for byte (raw).
      const responses: ReadonlyArray<ApiResponse | Exchange> = Array.isArray(evidence) ? evidence : [evidence as ApiResponse | Exchange];
      const recorded: Record<string, unknown> = { ...params };
      // A value the test learnt from an earlier exchange (idFrom) is read from that exchange, as rejudge reads it.
      const source = (seq: number) => meta.exchanges.find((e) => e.seq === seq && !e.sharedFrom) ?? fileRun.petSources.get(seq);
      // Every file's creates, from the ledger the workers share: as received while the test runs, and as
      // the log keeps them (rejudge reads the same) when the rule is asked again (unprovableRule).
      const creates = judgedCreates(fileRun.addedPets);
      const lookup: ExchangeLookup = Object.assign(
        (seq: number) => {
          const exchange = source(seq);
          return exchange ? recordedRuleExchange(exchange) : undefined;
        },
        { addedPets: creates.recorded },
      );
      // While the test runs, a source redaction changed is read as it was sent and received, as the
      // exchange judged is; the rule is then asked again on its record (unprovableRule).
      const redactedSources: number[] = [];
      const liveLookup: ExchangeLookup = Object.assign(
        (seq: number) => {
          const exchange = source(seq);
          if (!exchange) return undefined;
          const asSent = isRedactedRecord(exchange) ? fileRun.asSent.get(seq) : undefined;
          if (!asSent) return recordedRuleExchange(exchange);
          redactedSources.push(seq);
          return ruleExchangeOf(asSent);
        },
        { addedPets: creates.live },
      );
      const exchanges = responses.map((item) => ('exchange' in item ? ruleExchangeOf(item) : recordedRuleExchange(item)));
      const result = evaluateRule(rule, exchanges, recorded, contract, liveLookup);
      // Recorded before it fails, as a status judgment is: a failed test edited into a pass keeps the rule it failed.
      const seqs = evidenceSeqs(responses);
      if (seqs.length > 0) {
        meta.observed = (meta.observed ?? 0) + 1;
        (meta.judgments ??= []).push({ kind: 'rule', rule, params: recorded, exchanges: seqs });
      }
      if (result.holds) {
        const recordedOnly = unprovableRule(
          rule,
          responses.map((item) => ('exchange' in item ? item.exchange : item)),
          exchanges,
          recorded,
          contract,
          lookup,
          redactedSources,
          creates.unkept(),
        );
        if (recordedOnly) meta.unobservable ??= { reason: recordedOnly, code: 'unprovable' };
      }
      if (!result.holds) {
        const subject = what ? `${what}: ` : '';
        // Both exchanges of a contradiction (an id assigned twice) are the failure's evidence, the earlier first.
        const at = result.failedAt === undefined ? undefined : [result.alsoAt, result.failedAt].filter((i): i is number => i !== undefined);
        const failed = at === undefined ? responses : at.map((i) => responses[i]).filter((r): r is ApiResponse | Exchange => r !== undefined);
        const logOnly = recordOnlyFailure(rule, failed, result.actual);
        if (logOnly) return void (meta.unobservable ??= { reason: logOnly, code: 'unprovable' });
        fail(`${subject}${result.expected}`, `${subject}${result.actual}`, failed);
      }
    },
    async setupPet(fields = {}) {
      if (run.readOnly) throw new HarnessError('ERR_PRECONDITION', 'read-only mode: this test needs to create a pet');
      const sent = { name: fields.name ?? ctx.petName(), categoryId: fields.categoryId ?? ctx.categoryId(), status: fields.status };
      const body: Record<string, unknown> = { name: sent.name, categoryId: sent.categoryId };
      if (sent.status !== undefined) body.status = sent.status;
      const response = await client.createPet(body);
      // A 200 that carries the created Pet is used as the created pet: the wrong status is STA-001's and
      // STA-009's finding, and must not leave every test built on a pet untested behind it.
      const pet = createdPet(response);
      if (!pet) {
        throw new HarnessError(
          'ERR_PRECONDITION',
          `precondition failed: createPet answered ${response.status}, not 201 (or 200) with a Pet (see STA-001, SCH-002)`,
        );
      }
      // What was sent, with the id the target assigned (and its status when none was sent): a test that
      // reads the pet back compares with what the suite asked for, so a target that answers every
      // request with one canned pet cannot agree with itself into a pass. SCH-002 judges the echo.
      fileRun.petSources.set(response.exchange.seq, response.exchange);
      return { id: pet.id, name: sent.name, categoryId: sent.categoryId, status: sent.status ?? pet.status, from: response.exchange.seq };
    },
    async existingPet() {
      if (!run.readOnly) return ctx.setupPet();
      const response = await client.listPets({ limit: 1 });
      const pet = toPetRecords(response.body)[0];
      if (!pet) throw new HarnessError('ERR_PRECONDITION', 'read-only mode and the store lists no pet to read');
      fileRun.petSources.set(response.exchange.seq, response.exchange);
      return { ...pet, from: response.exchange.seq };
    },
    addedPets: () => fileRun.addedPets.read(),
    skip(reason: string, code: SkipCode = 'precondition'): never {
      meta.skipCode = code;
      throw new HarnessError('ERR_PRECONDITION', reason);
    },
    observable(condition, reason, code = 'precondition') {
      if (!condition) meta.unobservable ??= { reason, code };
    },
    note(text) {
      meta.notes = [...(meta.notes ?? []), fileRun.redact(text)];
    },
    budgetLeft: (key = 'main') => {
      const spent = key === 'exhaust' && fileRun.run.exhaustApiKey !== undefined;
      const budget = typeof key === 'object' ? fileRun.budgetOfKey(key.planKey) : spent ? fileRun.exhaustBudget : fileRun.budget;
      return budget.limit === undefined ? undefined : Math.max(0, budget.limit - budget.used);
    },
    clientWithKey: (apiKey) => fileRun.makeClient(apiKey),
    rawExchanges: {
      claim: () => fileRun.budget.take(),
      nextSeq: () => fileRun.nextSeq(),
      record: (exchange) => void meta.exchanges.push(exchange),
    },
    async recording(work) {
      const from = meta.exchanges.length;
      const value = await work();
      return { value, exchanges: meta.exchanges.slice(from) };
    },
    attachShared(exchanges, from) {
      meta.exchanges.push(...exchanges.map((exchange) => ({ ...exchange, sharedFrom: from })));
    },
    async property(arbitrary, predicate, options) {
      // Shrinking spends requests: only where the run has no request ceiling.
      await runProperty(meta, arbitrary, predicate, { ...options, seed, shrink: run.budgetLimit === undefined, ...(replayPath ? { replayPath } : {}) });
      // Every case that ran held the property: each is an assertion on what the target sent.
      assertions += meta.property?.numRuns ?? 0;
    },
  };
  return { ctx, assertions: () => assertions };
}

function briefBody(response: ApiResponse): string {
  const text = bodyExcerpt(response, 200);
  return text ? ` with body ${text}` : '';
}
