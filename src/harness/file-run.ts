import { test as base, inject } from 'vitest';
import { join } from 'node:path';
import { createAgent } from '../client/interim-responses.ts';
import { networkSecrets } from '../client/network-settings.ts';
import { createStrayWatch } from '../client/stray-bytes.ts';
import { type Catalog, catalogFrom } from '../catalog/catalog.ts';
import { type Breaker, createFileBreaker, createMemoryBreaker } from '../client/breaker.ts';
import {
  createClient,
  createFileRateLimitMemory,
  createInProcessRateLimitMemory,
  createLedgerBudget,
  createMemoryBudget,
  type RequestBudget,
  type TargetClient,
} from '../client/index.ts';
import { runChecks } from '../checks/index.ts';
import { type Contract, createContract } from '../contract/index.ts';
import { HarnessError } from '../errors.ts';
import { type Redactor, createRedactorOf, redactorsBySecret } from '../client/redact.ts';
import { listKey } from '../client/redaction-memo.ts';
import { shownText } from '../text/console-text.ts';
import { ADDED_PETS_FILE, type AddedPetsLedger, createAddedPetsLedger } from './added-pets.ts';
import type { ApiResponse } from '../client/client-types.ts';
import type { Exchange } from '../client/exchange.ts';
import type { ConformanceMeta } from '../report/test-meta.ts';
import { isRedactedRecord, noteUnprovable } from './unprovable.ts';
import type { RunContext } from './run-context.ts';
import { planKeyVariable } from '../config/plans.ts';

/** Waits shorter than this are not worth a line; lines come at most this often. */
const PROGRESS_MIN_WAIT_MS = 1_000;
const PROGRESS_EVERY_MS = 3_000;

/**
 * A line on stderr when the run waits for a rate-limit window: what for, how long, and the requests used
 * of the budget. Users of a remote run then see why it is quiet. At most one line every few seconds.
 */
export function waitProgress(budget: RequestBudget, liveProgress: boolean): (ms: number, reason: string) => void {
  // On a terminal the CLI's progress line is drawn without a newline: erase it, or this line joins it.
  const start = liveProgress ? '\r\x1b[K' : '';
  let last = 0;
  return (ms, reason) => {
    const now = Date.now();
    if (ms < PROGRESS_MIN_WAIT_MS || now - last < PROGRESS_EVERY_MS) return;
    last = now;
    const used = budget.limit === undefined ? `${budget.used} requests sent` : `${budget.used} of ${budget.limit} requests used`;
    process.stderr.write(`${start}… waiting ${Math.ceil(ms / 1000)} s for the rate limit (${shownText(reason, 200)}); ${used}\n`);
  };
}

/** What every test of one suite file shares: the run, its clients and budgets, the exchange numbering. */
export interface FileRun {
  run: RunContext;
  contract: Contract;
  catalog: Catalog;
  client: TargetClient;
  budget: RequestBudget;
  /** The dedicated exhaustion key's own budget. */
  exhaustBudget: RequestBudget;
  /** The budget a key's requests count in: the main key's, the exhaustion key's, or a plan key's own. */
  budgetOfKey(apiKey: string): RequestBudget;
  makeClient(apiKey: string): TargetClient;
  /** Numbers exchanges across the file's clients (and raw probes). */
  nextSeq(): number;
  /** Scrubs every key of the run from text bound for a report. */
  redact(text: string): string;
  /** The test running now: the client's recorder writes into its meta, and its signal stops the client's waits. */
  current: { meta: ConformanceMeta | undefined; signal: AbortSignal | undefined };
  /** The run's ledger of added pets (added-pets.ts). */
  addedPets: AddedPetsLedger;
  /** The exchanges each pet of setupPet/existingPet came from, by number: a rule's `idFrom` reads them. */
  petSources: Map<number, Exchange>;
  /**
   * The responses whose record redaction changed, as the test got them (sent and received), by number: a
   * rule that reads one by `idFrom` while the test runs reads it so, as it reads the exchange it judges.
   */
  asSent: Map<number, ApiResponse>;
}

/** Compiled once per worker from the sources the main process read: with isolate off, every file a worker runs shares them. */
interface WorkerShared {
  contract: Contract;
  catalog: Catalog;
  /** The embedded target's breakers, one set per worker. */
  breaker: Breaker;
  /** The redactor of these secrets, built once per worker (it costs milliseconds) and its memo shared. */
  redactorOf(secrets: readonly string[]): Redactor;
}

/** Redactors by the secrets they remove, for one worker's files and clients. */
function redactorCache(): (secrets: readonly string[]) => Redactor {
  const built = new Map<string, Redactor>();
  // A key's own client and the list of every key share that key's redactor: it is built once per worker.
  const bySecret = redactorsBySecret();
  return (secrets) => {
    const key = listKey(secrets);
    const known = built.get(key);
    if (known) return known;
    const redactor = createRedactorOf(secrets, bySecret);
    built.set(key, redactor);
    return redactor;
  };
}

/**
 * The shell variable a key's curl lines read it from: API_KEY for the main key, EXHAUST_API_KEY for the
 * exhaustion key, PAIR_API_KEY for the embedded reference's RATE-011 key, FREE_PLAN_KEY (and so on) for a
 * plan key, so that a line replays with the key it was sent with.
 */
function keyVariable(run: Pick<RunContext, 'exhaustApiKey' | 'isolationApiKey' | 'planKeys'>, apiKey: string): string {
  if (apiKey === run.exhaustApiKey) return 'EXHAUST_API_KEY';
  if (apiKey === run.isolationApiKey) return 'PAIR_API_KEY';
  const plan = run.planKeys.find((k) => k.key === apiKey)?.plan;
  return plan === undefined ? 'API_KEY' : planKeyVariable(plan);
}

/** vitest's test with the worker's compiled sources and the file's run as fixtures. */
export const conformanceTest = base.extend<{ fileRun: FileRun; shared: WorkerShared }>({
  shared: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its first parameter's pattern
    async ({}, use) => {
      const sources = inject('conformanceSources');
      if (!sources) throw new HarnessError('ERR_CONFIG', 'no spec or catalog provided: start the suites with npm run conformance');
      await use({ contract: createContract(sources.spec), catalog: catalogFrom(sources.catalog), breaker: createMemoryBreaker(), redactorOf: redactorCache() });
    },
    { scope: 'worker' },
  ],
  fileRun: [
    async ({ shared }, use) => {
      const run = inject('conformanceRun');
      if (!run) throw new HarnessError('ERR_CONFIG', 'no run context: start the suites with npm run conformance');
      const { contract, catalog } = shared;
      const current: FileRun['current'] = { meta: undefined, signal: undefined };
      const asSent: FileRun['asSent'] = new Map();
      // createAgent: an undici Agent whose connections also read an unsolicited 100 Continue.
      // Its sockets are watched for bytes that arrive while no request is in flight (HTTP-001).
      const stray = createStrayWatch();
      const dispatcher = createAgent({ keepAliveTimeout: 10_000, connections: 4 }, run.network, stray.adapt);
      // The ledger is shared across workers only where there is a ceiling to enforce.
      const budget = run.budgetLimit === undefined ? createMemoryBudget(undefined) : createLedgerBudget(run.ledgerPath, run.budgetLimit);
      const exhaustBudget =
        run.exhaustBudgetLimit === undefined ? createMemoryBudget(undefined) : createLedgerBudget(run.exhaustLedgerPath, run.exhaustBudgetLimit);
      // A remote key is one window shared by all files; the embedded main key has room to spare. A key spent
      // on purpose is paced across tests (and, remote, across workers): the exhaustion's first, paced request
      // waits for a window an earlier test left at 0, so a request served past that 0 is one the target
      // allowed. Embedded, the tests that spend a key share a file, and no file write slows a burst.
      const sharedRateLimit = run.embedded ? undefined : createFileRateLimitMemory(join(run.runDir, 'rate-limit.json'));
      const spentKeyMemories = new Map(
        [run.exhaustApiKey, run.isolationApiKey, ...run.planKeys.map((k) => k.key)]
          .filter((k): k is string => k !== undefined)
          .map((key, index) => [
            key,
            run.embedded ? createInProcessRateLimitMemory() : createFileRateLimitMemory(join(run.runDir, `rate-limit-spent-${index}.json`)),
          ]),
      );
      const progress = waitProgress(budget, run.liveProgress === true);
      // A remote target's breakers are shared by every worker: an operation that stopped answering is given
      // up once for the whole run. The file is read on every request, so the embedded reference (which
      // never hangs: no fault of it withholds an answer) keeps them in each worker's memory instead, for
      // all the files the worker runs: at most one worker's threshold more time-outs, no I/O per request.
      const breaker = run.embedded ? shared.breaker : createFileBreaker(join(run.runDir, 'breakers.json'));
      // One numbering per file, whatever client sent: the reporter renumbers once per run from these.
      let lastSeq = 0;
      const nextSeq = () => ++lastSeq;
      // Embedded, this file's creates are written at its end (or the worker's exit), not one append each.
      const addedPets = createAddedPetsLedger(join(run.runDir, ADDED_PETS_FILE), run.embedded);
      const flushAddedPets = () => addedPets.flush();
      process.on('exit', flushAddedPets);
      // Each key spent on purpose has a ceiling of its own, apart from the main key's: the exhaustion key's
      // budget, and one per plan key (a Pro key's minute alone is 301 requests of a standard budget).
      const spentKeys = new Set(spentKeyMemories.keys());
      const planBudgets = new Map(
        run.planKeys
          .filter((k) => k.key !== run.exhaustApiKey)
          .map((k, index) => [
            k.key,
            run.exhaustBudgetLimit === undefined
              ? createMemoryBudget(undefined)
              : createLedgerBudget(join(run.runDir, `plan-${index}.ledger`), run.exhaustBudgetLimit),
          ]),
      );
      const budgetOfKey = (apiKey: string) => planBudgets.get(apiKey) ?? (spentKeys.has(apiKey) ? exhaustBudget : budget);
      const makeClient = (apiKey: string) =>
        createClient({
          nextSeq,
          inspect: runChecks,
          breaker,
          onWait: run.quiet ? undefined : progress,
          baseUrl: run.baseUrl,
          apiKey,
          keyVariable: keyVariable(run, apiKey),
          contract,
          timeoutMs: run.timeoutMs,
          userAgent: run.userAgent,
          budget: budgetOfKey(apiKey),
          dispatcher,
          strayBytes: stray.take,
          network: run.network,
          sharedRateLimit: apiKey === run.apiKey ? sharedRateLimit : spentKeyMemories.get(apiKey),
          waitDeadline: run.waitDeadline,
          abortSignal: () => current.signal,
          redactor: shared.redactorOf([apiKey, ...networkSecrets(run.network)]),
          onExchange(exchange, findings, response) {
            if (response && isRedactedRecord(exchange)) asSent.set(exchange.seq, response);
            if (apiKey === run.apiKey && !run.readOnly) addedPets.record(exchange, response);
            const meta = current.meta;
            if (!meta) return;
            meta.exchanges.push(apiKey === run.apiKey ? exchange : { ...exchange, keyRole: 'exhaust' });
            meta.findings.push(...findings);
            if (exchange.response?.redacted) noteUnprovable(meta, exchange, findings, contract);
          },
        });
      const client = makeClient(run.apiKey);
      const redact = shared.redactorOf(
        [run.apiKey, run.exhaustApiKey, run.isolationApiKey, ...run.planKeys.map((k) => k.key), ...networkSecrets(run.network)].filter((k): k is string =>
          Boolean(k),
        ),
      );
      await use({
        run,
        contract,
        catalog,
        client,
        budget,
        exhaustBudget,
        budgetOfKey,
        makeClient,
        nextSeq,
        redact,
        current,
        addedPets,
        petSources: new Map(),
        asSent,
      });
      process.off('exit', flushAddedPets);
      addedPets.flush();
      await dispatcher.close();
    },
    { scope: 'file' },
  ],
});
