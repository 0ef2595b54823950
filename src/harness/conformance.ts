import type fc from 'fast-check';
import { test as base, expect, inject } from 'vitest';
import { join } from 'node:path';
import { createAgent } from '../client/interim-responses.ts';
import { networkSecrets } from '../client/network.ts';
import { type Catalog, type Requirement, catalogFrom } from '../catalog/catalog.ts';
import { createFileBreaker } from '../client/breaker.ts';
import {
  createClient,
  createFileRateLimitMemory,
  createLedgerBudget,
  createMemoryBudget,
  type ApiResponse,
  type RequestBudget,
  type TargetClient,
} from '../client/index.ts';
import { runChecks } from '../checks/index.ts';
import type { Exchange } from '../client/exchange.ts';
import type { RawExchangeSink } from '../client/framing-probe.ts';
import type { Profile } from '../profiles.ts';
import { type Contract, createContract } from '../contract/index.ts';
import { ConformanceFailure, HarnessError, isConformanceFailure, isHarnessError } from '../errors.ts';
import { bodyExcerpt, createRedactor } from '../client/redact.ts';
import { shownText } from '../console-text.ts';
import { ADDED_PETS_FILE, type AddedPet, readAddedPets, recordAddedPet } from './added-pets.ts';
import { trimEvidence } from './evidence.ts';
import type { ConformanceMeta, SkipCode } from './meta.ts';
import { type PetRecord, describePet, toPetRecord, toPetRecords } from './pets.ts';
import type { RunContext } from './run-context.ts';
import { type ConformanceOptions, skipDecision } from './selection.ts';
import { type PropertyFamily, runProperty } from './property.ts';
import { hashSeed, seededRandom } from './seeds.ts';

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
  /** A pet name tagged with the run id, so what the suite creates on a shared store is recognisable. */
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
   * Creates a pet this test needs; when the target cannot, the test is skipped (STA-001 reports it). The
   * record holds what was sent and the id assigned: compare read-backs with it, never with the echo.
   */
  setupPet(fields?: { name?: string; categoryId?: bigint; status?: string }): Promise<PetRecord>;
  /** A pet that exists: created (or, in read-only mode, the first one listed). */
  existingPet(): Promise<PetRecord>;
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
   * `exhaust` on the dedicated exhaustion key, whose requests have a budget of their own.
   */
  budgetLeft(key?: 'main' | 'exhaust'): number | undefined;
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

/** Waits shorter than this are not worth a line; lines come at most this often. */
const PROGRESS_MIN_WAIT_MS = 1_000;
const PROGRESS_EVERY_MS = 3_000;

/**
 * A line on stderr when the run waits for a rate-limit window: what for, how long, and the requests used
 * of the budget. Users of a remote run then see why it is quiet. At most one line every few seconds.
 */
function waitProgress(budget: RequestBudget): (ms: number, reason: string) => void {
  let last = 0;
  return (ms, reason) => {
    const now = Date.now();
    if (ms < PROGRESS_MIN_WAIT_MS || now - last < PROGRESS_EVERY_MS) return;
    last = now;
    const used = budget.limit === undefined ? `${budget.used} requests sent` : `${budget.used} of ${budget.limit} requests used`;
    process.stderr.write(`… waiting ${Math.ceil(ms / 1000)} s for the rate limit (${shownText(reason, 200)}); ${used}\n`);
  };
}

/** What a failure was decided on: responses the suite received, or their recorded exchanges. */
export type Evidence = ApiResponse | Exchange | ReadonlyArray<ApiResponse | Exchange>;

function evidenceSeqs(evidence: Evidence | undefined): number[] {
  if (evidence === undefined) return [];
  const list: ReadonlyArray<ApiResponse | Exchange> = Array.isArray(evidence) ? evidence : [evidence as ApiResponse | Exchange];
  return list.map((item) => ('exchange' in item ? item.exchange.seq : item.seq));
}

interface FileRun {
  run: RunContext;
  contract: Contract;
  catalog: Catalog;
  client: TargetClient;
  budget: RequestBudget;
  /** The dedicated exhaustion key's own budget. */
  exhaustBudget: RequestBudget;
  makeClient(apiKey: string): TargetClient;
  /** Numbers exchanges across the file's clients (and raw probes). */
  nextSeq(): number;
  /** Scrubs every key of the run from text bound for a report. */
  redact(text: string): string;
  /** The test running now: the client's recorder writes into its meta, and its signal stops the client's waits. */
  current: { meta: ConformanceMeta | undefined; signal: AbortSignal | undefined };
  /** The run's ledger of added pets (added-pets.ts). */
  addedPetsPath: string;
}

/** Compiled once per worker from the sources the main process read: with isolate off, every file a worker runs shares them. */
interface WorkerShared {
  contract: Contract;
  catalog: Catalog;
}

const test = base.extend<{ fileRun: FileRun; shared: WorkerShared }>({
  shared: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its first parameter's pattern
    async ({}, use) => {
      const sources = inject('conformanceSources');
      if (!sources) throw new HarnessError('ERR_CONFIG', 'no spec or catalog provided: start the suites with npm run conformance');
      await use({ contract: createContract(sources.spec), catalog: catalogFrom(sources.catalog) });
    },
    { scope: 'worker' },
  ],
  fileRun: [
    async ({ shared }, use) => {
      const run = inject('conformanceRun');
      if (!run) throw new HarnessError('ERR_CONFIG', 'no run context: start the suites with npm run conformance');
      const { contract, catalog } = shared;
      const current: FileRun['current'] = { meta: undefined, signal: undefined };
      // createAgent: an undici Agent whose connections also read an unsolicited 100 Continue.
      const dispatcher = createAgent({ keepAliveTimeout: 10_000, connections: 4 }, run.network);
      // The ledger is shared across workers only where there is a ceiling to enforce.
      const budget = run.budgetLimit === undefined ? createMemoryBudget(undefined) : createLedgerBudget(run.ledgerPath, run.budgetLimit);
      const exhaustBudget =
        run.exhaustBudgetLimit === undefined ? createMemoryBudget(undefined) : createLedgerBudget(run.exhaustLedgerPath, run.exhaustBudgetLimit);
      // A remote key is one window shared by all files; the embedded keys have room to spare.
      const sharedRateLimit = run.embedded ? undefined : createFileRateLimitMemory(join(run.runDir, 'rate-limit.json'));
      const progress = waitProgress(budget);
      // Shared by every worker: an operation that stopped answering is given up once for the whole run.
      const breaker = createFileBreaker(join(run.runDir, 'breakers.json'));
      // One numbering per file, whatever client sent: the reporter renumbers once per run from these.
      let lastSeq = 0;
      const nextSeq = () => ++lastSeq;
      const addedPetsPath = join(run.runDir, ADDED_PETS_FILE);
      const makeClient = (apiKey: string) =>
        createClient({
          nextSeq,
          inspect: runChecks,
          breaker,
          onWait: run.quiet ? undefined : progress,
          baseUrl: run.baseUrl,
          apiKey,
          contract,
          timeoutMs: run.timeoutMs,
          userAgent: run.userAgent,
          budget: run.exhaustApiKey !== undefined && apiKey === run.exhaustApiKey ? exhaustBudget : budget,
          dispatcher,
          network: run.network,
          sharedRateLimit: apiKey === run.apiKey ? sharedRateLimit : undefined,
          waitDeadline: run.waitDeadline,
          abortSignal: () => current.signal,
          onExchange(exchange, findings) {
            if (apiKey === run.apiKey && !run.readOnly) recordAddedPet(addedPetsPath, exchange);
            const meta = current.meta;
            if (!meta) return;
            meta.exchanges.push(apiKey === run.apiKey ? exchange : { ...exchange, keyRole: 'exhaust' });
            meta.findings.push(...findings);
          },
        });
      const client = makeClient(run.apiKey);
      const redactors = [run.apiKey, run.exhaustApiKey, ...networkSecrets(run.network)].filter((k): k is string => Boolean(k)).map(createRedactor);
      const redact = (text: string) => redactors.reduce((out, r) => r(out), text);
      await use({ run, contract, catalog, client, budget, exhaustBudget, makeClient, nextSeq, redact, current, addedPetsPath });
      await dispatcher.close();
    },
    { scope: 'file' },
  ],
});

/**
 * Declares a test that proves one requirement. Its title starts with the id; its exchanges, findings,
 * failure and skip reason travel to the reporter in task.meta.conformance.
 */
export function conformance(id: string, title: string, fn: (ctx: ConformanceContext) => Promise<void>, options: ConformanceOptions = {}): void {
  test(`${id} ${title}`, { timeout: options.timeoutMs }, async ({ fileRun, task, skip, signal }) => {
    const requirement = fileRun.catalog.get(id);
    const meta: ConformanceMeta = { requirementId: id, level: requirement.level, area: requirement.area, findings: [], exchanges: [] };
    task.meta.conformance = meta;
    const decision = skipDecision(fileRun.run, requirement, options, task.id);
    if (decision) {
      meta.skipReason = decision.reason;
      meta.skipCode = decision.code;
      skip(decision.reason);
    }
    fileRun.current.meta = meta;
    fileRun.current.signal = signal;
    const { ctx, assertions } = createContext(fileRun, requirement, meta, task.name, signal, fileRun.run.replay?.[task.id]?.path);
    const expectCallsBefore = expect.getState().assertionCalls;
    try {
      await fn(ctx);
      // A test that returns without judging anything the target sent proves nothing: never a pass.
      if (assertions() === 0 && expect.getState().assertionCalls === expectCallsBefore) {
        throw new HarnessError(
          'ERR_NO_ASSERTION',
          `${id}: the test ended without asserting anything the target sent (a suite bug: it must assert or skip with a reason)`,
        );
      }
      // It judged, but over nothing that could have failed (an empty list, a store too small): untested.
      if (meta.unobservable) ctx.skip(meta.unobservable.reason, meta.unobservable.code);
    } catch (thrown) {
      // Failure text quotes response bodies, and a hostile target may echo the key back in them.
      const error = redactError(thrown, fileRun.redact);
      const skipped = recordOutcome(meta, error);
      if (meta.property?.counterexample) meta.property.counterexample = fileRun.redact(meta.property.counterexample);
      if (skipped) skip(skipped);
      throw error;
    } finally {
      fileRun.current.meta = undefined;
      fileRun.current.signal = undefined;
      if (!fileRun.run.fullEvidence) trimEvidence(meta);
    }
  });
}

/** Writes the failure (or the skip reason) into meta; returns a skip reason when the test should skip. */
function recordOutcome(meta: ConformanceMeta, error: unknown): string | undefined {
  if (isConformanceFailure(error)) {
    meta.failure = { kind: 'conformance', code: error.code, message: error.message, expected: error.expected, actual: error.actual };
    if (error.exchangeSeqs.length > 0) meta.failure.exchangeSeqs = [...error.exchangeSeqs];
    return undefined;
  }
  if (isHarnessError(error)) {
    if (error.code === 'ERR_OPERATION_BROKEN') {
      // The target stopped answering an operation this test needs: the requirement is not met, with the
      // time-outs as evidence (they are in this run's exchanges), and the rest of the run goes on.
      meta.failure = { kind: 'conformance', code: error.code, message: error.message, expected: 'an answer within --timeout', actual: error.message };
      return undefined;
    }
    if (error.code === 'ERR_RATE_LIMIT_CONTRADICTED') {
      // The contradiction is RATE-004's failure; this test could not be judged.
      const last = meta.exchanges.at(-1);
      meta.findings.push({
        requirementId: 'RATE-004',
        check: 'rate-limit-contradiction',
        expected: 'no 429 while X-RateLimit-Remaining says requests are left',
        actual: error.message,
        exchangeSeq: last?.seq ?? 0,
      });
      meta.skipReason = error.message;
      meta.skipCode = 'precondition';
      return error.message;
    }
    if (error.code === 'ERR_BUDGET_EXHAUSTED' || error.code === 'ERR_PRECONDITION') {
      meta.skipReason = error.message;
      meta.skipCode ??= error.code === 'ERR_BUDGET_EXHAUSTED' ? 'budget' : 'precondition';
      return error.message;
    }
    meta.failure = { kind: 'harness', code: error.code, message: error.message };
    return undefined;
  }
  if (isSkip(error)) return undefined;
  if (error instanceof Error && error.name === 'AbortError') {
    meta.failure = { kind: 'harness', code: 'ERR_ABORTED', message: 'the test was cancelled: the run was interrupted or the test timed out' };
    return undefined;
  }
  const message = error instanceof Error ? error.message : String(error);
  // vitest's expect throws AssertionError: the target did not meet what the test asserts.
  const kind = error instanceof Error && error.name === 'AssertionError' ? 'conformance' : 'harness';
  meta.failure = { kind, code: kind === 'conformance' ? 'ERR_CONFORMANCE' : 'ERR_INTERNAL', message };
  return undefined;
}

/** The same error with every key scrubbed from its text; vitest prints it and the reporter keeps it. */
function redactError(error: unknown, redact: (text: string) => string): unknown {
  if (isConformanceFailure(error)) return new ConformanceFailure(error.requirementId, redact(error.expected), redact(error.actual), error.exchangeSeqs);
  if (isHarnessError(error)) return new HarnessError(error.code, redact(error.message));
  if (error instanceof Error && !isSkip(error)) {
    const copy = new Error(redact(error.message));
    copy.name = error.name;
    return copy;
  }
  return error;
}

function isSkip(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: string }).name === 'SkipError';
}

function createContext(
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
    petName: (label = requirement.id) => `conformance-${run.runId} ${label} #${++created}`,
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
    async setupPet(fields = {}) {
      if (run.readOnly) throw new HarnessError('ERR_PRECONDITION', 'read-only mode: this test needs to create a pet');
      const sent = { name: fields.name ?? ctx.petName(), categoryId: fields.categoryId ?? ctx.categoryId(), status: fields.status };
      const body: Record<string, unknown> = { name: sent.name, categoryId: sent.categoryId };
      if (sent.status !== undefined) body.status = sent.status;
      const response = await client.createPet(body);
      const pet = response.status === 201 ? toPetRecord(response.body) : undefined;
      if (!pet) {
        throw new HarnessError('ERR_PRECONDITION', `precondition failed: createPet answered ${response.status}, not 201 with a Pet (see STA-001, SCH-002)`);
      }
      // What was sent, with the id the target assigned (and its status when none was sent): a test that
      // reads the pet back compares with what the suite asked for, so a target that answers every
      // request with one canned pet cannot agree with itself into a pass. SCH-002 judges the echo.
      return { id: pet.id, name: sent.name, categoryId: sent.categoryId, status: sent.status ?? pet.status };
    },
    async existingPet() {
      if (!run.readOnly) return ctx.setupPet();
      const response = await client.listPets({ limit: 1 });
      const pet = toPetRecords(response.body)[0];
      if (!pet) throw new HarnessError('ERR_PRECONDITION', 'read-only mode and the store lists no pet to read');
      return pet;
    },
    addedPets: () => readAddedPets(fileRun.addedPetsPath),
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
      const budget = key === 'exhaust' && fileRun.run.exhaustApiKey !== undefined ? fileRun.exhaustBudget : fileRun.budget;
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

export { describePet };
