import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, planOf } from '../config.ts';
import { type Profile, PROFILE_RULES } from '../profiles.ts';
import type { Contract } from '../contract/index.ts';
import type { PlanName } from '../plans.ts';
import { HarnessError } from '../errors.ts';
import { preflight } from './preflight.ts';
import { type FaultName, type VariantName, VARIANTS, combineVariants, isFaultName, startReferenceServer } from '../reference/index.ts';

/**
 * Everything a test worker needs to reach the target, handed from the main process with provide/inject.
 * Plain data only: it crosses a process boundary.
 */
export interface RunContext {
  runId: string;
  baseUrl: string;
  apiKey: string;
  /** A key the exhaustion tests spend instead of apiKey: the embedded reference's small one, or --exhaust-key. */
  exhaustApiKey: string | undefined;
  /** The key's plan: --plan, or Enterprise for the embedded reference's key. */
  plan: PlanName | undefined;
  /** Embedded reference only: the rate window, so the recovery test knows how long it may wait. */
  rateWindowMs: number | undefined;
  embedded: boolean;
  profile: Profile;
  budgetLimit: number | undefined;
  /** Shared by all workers: one byte per request sent (the budget ledger) and the last rate-limit state. */
  runDir: string;
  ledgerPath: string;
  seed: number;
  readOnly: boolean;
  exhaust: boolean;
  only: string[];
  categoryIds: string[] | undefined;
  timeoutMs: number;
  /** Epoch ms when the run's --max-duration passes: no test starts after it, no wait reaches past it. */
  deadline: number;
  /** No progress lines (--quiet). */
  quiet: boolean;
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

/**
 * How long a run may spend waiting for rate-limit windows: quick fits one Free-plan minute, standard
 * 600 requests at 60 a minute. Past it the run ends incomplete instead of crawling on headers that claim
 * an exhausted window forever.
 */

/** The embedded reference's rate window: short, so the recovery test waits seconds, not a minute. */
export const EMBEDDED_RATE_WINDOW_MS = 2_000;
/** Requests the embedded exhaustion key may make per window. */
export const EMBEDDED_EXHAUST_LIMIT = 12;

/** Starts the embedded reference (or probes the remote target) and creates the shared run directory. */
export async function prepareRun(config: Config, contract?: Contract): Promise<PreparedRun> {
  const startedAt = Date.now();
  const runDir = mkdtempSync(join(tmpdir(), 'animal-store-conformance-'));
  const ledgerPath = join(runDir, 'requests.ledger');
  writeFileSync(ledgerPath, '');
  const removeRunDir = () => rmSync(runDir, { recursive: true, force: true });
  const base = {
    runId: randomBytes(4).toString('hex'),
    profile: config.profile,
    budgetLimit: PROFILE_RULES[config.profile].budget,
    runDir,
    ledgerPath,
    seed: config.seed,
    readOnly: config.readOnly,
    exhaust: config.exhaust,
    only: [...config.only],
    categoryIds: config.categoryIds ? [...config.categoryIds] : undefined,
    timeoutMs: config.timeoutMs,
    plan: planOf(config),
    waitDeadline: Math.min(waitDeadline(PROFILE_RULES[config.profile].waitAllowanceMs) ?? Infinity, startedAt + config.maxDurationMs),
    deadline: startedAt + config.maxDurationMs,
    quiet: config.quiet,
    ...(config.certifyDir !== undefined ? { fullEvidence: true } : {}),
    ...(config.replay ? { replay: Object.fromEntries(config.replay.map((t) => [t.id, t.path ? { path: t.path } : {}])) } : {}),
  };
  try {
    if (config.target === undefined) {
      const apiKey = `embedded-${randomBytes(12).toString('hex')}`;
      const exhaustApiKey = `embedded-exhaust-${randomBytes(12).toString('hex')}`;
      const server = await startReferenceServer({
        ...referenceOptions(config),
        ...(contract ? { contract } : {}),
        keys: [
          { key: apiKey, plan: 'enterprise', perMinute: 1_000_000_000, perDay: 1_000_000_000 },
          { key: exhaustApiKey, plan: 'enterprise', perMinute: EMBEDDED_EXHAUST_LIMIT, perDay: 1_000_000_000 },
        ],
        rateWindowMs: EMBEDDED_RATE_WINDOW_MS,
      });
      return {
        context: { ...base, baseUrl: server.url, apiKey, exhaustApiKey, rateWindowMs: EMBEDDED_RATE_WINDOW_MS, embedded: true },
        async dispose() {
          await server.close();
          removeRunDir();
        },
      };
    }
    const apiKey = config.apiKey ?? '';
    await preflight({ baseUrl: config.target, apiKey, exhaustApiKey: config.exhaustApiKey, timeoutMs: config.timeoutMs, ledgerPath });
    return {
      context: { ...base, baseUrl: config.target, apiKey, exhaustApiKey: config.exhaustApiKey, rateWindowMs: undefined, embedded: false },
      async dispose() {
        removeRunDir();
      },
    };
  } catch (error) {
    removeRunDir();
    throw error;
  }
}

/** The embedded reference's faults and variants, checked by name. */
function referenceOptions(config: Config) {
  for (const name of config.referenceFaults) {
    if (!isFaultName(name)) throw new HarnessError('ERR_CONFIG', `unknown reference fault "${name}" (see src/reference/faults)`);
  }
  for (const name of config.referenceVariants) {
    if (!VARIANTS.some((v) => v.name === name)) throw new HarnessError('ERR_CONFIG', `unknown reference variant "${name}"`);
  }
  return {
    ...combineVariants(...(config.referenceVariants as VariantName[])),
    faults: config.referenceFaults as FaultName[],
  };
}

function waitDeadline(allowanceMs: number | undefined): number | undefined {
  return allowanceMs === undefined ? undefined : Date.now() + allowanceMs;
}
