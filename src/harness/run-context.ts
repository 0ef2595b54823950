import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, planLimitsOf, planOf } from '../config/load-config.ts';
import { PROFILE_RULES } from '../config/profiles.ts';
import type { Contract } from '../contract/index.ts';
import type { Limits, PlanName } from '../config/plans.ts';
import { type TargetFields, startTarget } from './target.ts';
import { commonUserAgent } from '../client/user-agent.ts';

/**
 * Everything a test worker needs to reach the target, handed from the main process with provide/inject.
 * Plain data only: it crosses a process boundary.
 */
/** The settings a worker reads as the configuration has them (Config is their one home). */
export const WORKER_SETTINGS = [
  'profile',
  'seed',
  'readOnly',
  'exhaust',
  'only',
  'categoryIds',
  'timeoutMs',
  'quiet',
  'network',
  'userAgent',
  'holdConnectionMs',
] as const;
type WorkerSettings = Pick<Config, (typeof WORKER_SETTINGS)[number]>;

export interface RunContext extends TargetFields, WorkerSettings {
  runId: string;
  /** The key's plan: --plan, or Enterprise for the embedded reference's key. */
  plan: PlanName | undefined;
  /** The plan's custom limits when known (enterprise:<perMinute>:<perDay>, the embedded reference's key). */
  planLimits?: Limits;
  budgetLimit: number | undefined;
  /** The ceiling of requests on the dedicated exhaustion key, kept in its own ledger (exhaustLedgerPath). */
  exhaustBudgetLimit: number | undefined;
  exhaustLedgerPath: string;
  /** Shared by all workers: one byte per request sent (the budget ledger) and the last rate-limit state. */
  runDir: string;
  ledgerPath: string;
  /** The CLI redraws one progress line on a terminal: a worker's own line must erase it first. */
  liveProgress?: boolean;
  /** Epoch ms when the run's --max-duration passes: no test starts after it, no wait reaches past it. */
  deadline: number;
  /** Epoch ms after which no client waits for a rate-limit window any more; undefined: no limit. */
  waitDeadline: number | undefined;
  /**
   * --replay: the only tests that run (by vitest test id), each with the fast-check path of its
   * counterexample when it is a property; undefined: a normal run.
   */
  replay?: Record<string, { path?: string }>;
  /** Keep every exchange whole (headers, bodies) for the certification bundle's HAR (--certify). */
  fullEvidence?: boolean;
}

export interface PreparedRun {
  context: RunContext;
  dispose(): Promise<void>;
}

/** Starts the target (embedded reference or probed remote) and creates the shared run directory. */
export async function prepareRun(config: Config, contract?: Contract): Promise<PreparedRun> {
  const startedAt = Date.now();
  const runDir = mkdtempSync(join(tmpdir(), 'animal-store-conformance-'));
  const ledgerPath = join(runDir, 'requests.ledger');
  writeFileSync(ledgerPath, '');
  const exhaustLedgerPath = join(runDir, 'exhaust.ledger');
  writeFileSync(exhaustLedgerPath, '');
  const removeRunDir = () => rmSync(runDir, { recursive: true, force: true });
  const rules = PROFILE_RULES[config.profile];
  // Unless the run names itself (--announce, --user-agent), its User-Agent is a common client's, a new one each run.
  const userAgent = config.userAgent ?? (config.announce ? undefined : commonUserAgent(randomBytes(1)[0] ?? 0));
  const base = {
    runId: randomBytes(4).toString('hex'),
    ...workerSettings(config),
    ...(userAgent === undefined ? {} : { userAgent }),
    budgetLimit: rules.budget,
    exhaustBudgetLimit: rules.exhaustBudget,
    runDir,
    ledgerPath,
    exhaustLedgerPath,
    plan: planOf(config),
    ...(planLimitsOf(config) ? { planLimits: planLimitsOf(config) } : {}),
    // How long a run may spend waiting for rate-limit windows: past it the run ends incomplete instead
    // of crawling on headers that claim an exhausted window forever.
    waitDeadline: Math.min(waitDeadline(rules.waitAllowanceMs) ?? Infinity, startedAt + config.maxDurationMs),
    deadline: startedAt + config.maxDurationMs,
    // A certificate, and a shard a merge may certify, keep every exchange whole: rejudge re-runs the checks on them.
    ...(config.certifyDir !== undefined || config.shard !== undefined ? { fullEvidence: true } : {}),
    ...(config.replay ? { replay: Object.fromEntries(config.replay.map((t) => [t.id, t.path ? { path: t.path } : {}])) } : {}),
  };
  try {
    const target = await startTarget({ ...config, userAgent }, ledgerPath, contract);
    return {
      context: { ...base, ...target.fields },
      async dispose() {
        await target.close();
        removeRunDir();
      },
    };
  } catch (error) {
    removeRunDir();
    throw error;
  }
}

function workerSettings(config: Config): WorkerSettings {
  return Object.fromEntries(WORKER_SETTINGS.map((name) => [name, config[name]])) as unknown as WorkerSettings;
}

function waitDeadline(allowanceMs: number | undefined): number | undefined {
  return allowanceMs === undefined ? undefined : Date.now() + allowanceMs;
}
