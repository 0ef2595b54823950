import { randomBytes } from 'node:crypto';
import type { Config } from '../config/load-config.ts';
import { EMBEDDED_PLAN, type PlanKey } from '../config/plans.ts';
import type { Contract } from '../contract/index.ts';
import { type FaultName, type VariantName, type WindowStart, combineVariants, startReferenceServer } from '../reference/index.ts';
import { HarnessError } from '../errors.ts';
import { INT64_MAX } from '../text/json.ts';

/** The embedded reference's rate window: short, so the recovery test waits seconds, not a minute. */
export const EMBEDDED_RATE_WINDOW_MS = 2_000;
/** The interface's rate window, the one a remote target is held to unless --rate-window states another. */
const MINUTE_MS = 60_000;
/** Requests the embedded exhaustion key may make per window. */
export const EMBEDDED_EXHAUST_LIMIT = 2;
/**
 * Where the default setup's exhaustion and isolation keys start their windows: at their first request. On
 * a window aligned on the clock the exhaustion's first request read "the turn within a second" in most
 * runs (Reset and Date count whole seconds), and the exhaustion waited for the turn (about a second). The
 * other keys, and the other setups (whose day binds and turns with a minute on the clock), stay on the clock.
 */
export const EMBEDDED_WINDOW_START: WindowStart = 'first-request';

/**
 * How the embedded reference is started. `default` is every run's: the exhaustion key's minute window
 * binds. The others reach what a default run cannot, so that mutants there can be killed
 * (stryker.config.mjs runs them after the default one); each keeps a run within seconds of the default:
 * - `day-window`: the exhaustion key's day limit binds (a day of two minute windows), so RATE-003…007 run on the daily
 *   window; the pets' ids start 20 below INT64_MAX and go past it.
 * - `both-windows`: the exhaustion key spends both windows at the same request; the 429 must name the
 *   day, which turns later. The ids start a million below INT64_MAX, where doubles are 1024 apart, and
 *   never run out within a run: every two pets created one after the other have ids a double cannot
 *   tell apart (INT-004 reads both back).
 * Selected by the CONFORMANCE_EMBEDDED_SETUP environment variable (a benchmark knob, not a user option).
 * No setup moves the clock: the reference has one clock for the rate windows and the sunset, and a clock
 * years ahead makes X-RateLimit-Reset years ahead of the client (RATE-002 rightly fails); a clock just
 * before the sunset would kill no mutant a clock of today leaves alive.
 */
export const EMBEDDED_SETUPS = ['default', 'day-window', 'both-windows'] as const;
export type EmbeddedSetup = (typeof EMBEDDED_SETUPS)[number];

/**
 * The day window of the setups where the day binds: two minute windows, so the minute turns alone once
 * within a day, and a day always turns together with a minute (the windows are aligned on the clock).
 */
export const EMBEDDED_DAY_WINDOW_MS = 2 * EMBEDDED_RATE_WINDOW_MS;

export function embeddedSetup(value: string | undefined): EmbeddedSetup {
  if (value === undefined || value === '') return 'default';
  if ((EMBEDDED_SETUPS as readonly string[]).includes(value)) return value as EmbeddedSetup;
  throw new HarnessError('ERR_CONFIG', `CONFORMANCE_EMBEDDED_SETUP must be one of ${EMBEDDED_SETUPS.join(', ')}; got "${value}"`);
}

/** The embedded reference's keys, each made fresh for its run. */
export interface EmbeddedKeys {
  apiKey: string;
  exhaustApiKey: string;
  freeApiKey: string;
  /** RATE-011's observed key (see TargetFields.isolationApiKey): the exhaustion key's limits, its own counters. */
  isolationApiKey: string;
}

/**
 * What a setup changes in the embedded reference's options: the exhaustion key's limits, the windows, the
 * first id. Every setup also has a Free-plan key at the interface's own limits (60 a window, 1,000 a day),
 * which RATE-008 spends at standard and thorough: the one key whose limits come from the plan table.
 */
export function embeddedOptions(setup: EmbeddedSetup, keys: EmbeddedKeys) {
  // The main key is of a plan the suite knows exactly (RATE-008 is tested on it).
  const main = { key: keys.apiKey, plan: EMBEDDED_PLAN.plan, ...EMBEDDED_PLAN.limits };
  const free = { key: keys.freeApiKey, plan: 'free' };
  // The isolation key is limited like the exhaustion key, so RATE-011 observes a key of the same kind.
  const small = (limits: { perMinute: number; perDay: number; windowStart?: WindowStart }) => [
    { key: keys.exhaustApiKey, plan: 'enterprise', ...limits },
    { key: keys.isolationApiKey, plan: 'enterprise', ...limits },
  ];
  const limit = EMBEDDED_EXHAUST_LIMIT;
  if (setup === 'default') {
    // Their windows start at their first request: the exhaustion then finds its window whole and far from
    // its turn, instead of waiting up to a second for a window on the clock to turn (see EMBEDDED_WINDOW_START).
    return {
      keys: [main, free, ...small({ perMinute: limit, perDay: 1_000_000_000, windowStart: EMBEDDED_WINDOW_START })],
      rateWindowMs: EMBEDDED_RATE_WINDOW_MS,
      waitMs: EMBEDDED_RATE_WINDOW_MS,
    };
  }
  const windows = { rateWindowMs: EMBEDDED_RATE_WINDOW_MS, dayWindowMs: EMBEDDED_DAY_WINDOW_MS, waitMs: EMBEDDED_DAY_WINDOW_MS };
  if (setup === 'both-windows') {
    return { keys: [main, free, ...small({ perMinute: limit, perDay: limit })], ...windows, idStart: INT64_MAX - 1_000_000n };
  }
  return { keys: [main, free, ...small({ perMinute: 1_000_000_000, perDay: limit })], ...windows, idStart: INT64_MAX - 20n };
}

/** What a run knows of its target once it is up: where it is and which keys reach it. */
export interface TargetFields {
  baseUrl: string;
  apiKey: string;
  /** A key the exhaustion tests spend instead of apiKey: the embedded reference's small one, or --exhaust-key. */
  exhaustApiKey: string | undefined;
  /**
   * The embedded reference's key for RATE-011's paired observation, which spends its small window: on the
   * exhaustion key, the exhaustion after it waited for that window to turn (about a second of the run).
   * Undefined on a remote target, where the exhaustion key serves both and the exhaustion waits.
   */
  isolationApiKey?: string;
  /** Keys of stated plans, spent by RATE-008 to judge those plans' limits: the embedded reference's Free key, or --plan-key. */
  planKeys: readonly PlanKey[];
  /**
   * The window the key's per-minute limit applies to, as stated: --rate-window, else a minute; the
   * embedded reference states its own (the exhaustion key's). RATE-008 fails a key whole again sooner.
   */
  rateWindowMs: number;
  embedded: boolean;
}

export interface StartedTarget {
  fields: TargetFields;
  close(): Promise<void>;
}

/**
 * The one place a run's target comes up: the embedded reference (with its faults and variants, which
 * the reference checks by name) on fresh keys, or the remote target after its preflight.
 */
export async function startTarget(config: Config, ledgerPath: string, contract?: Contract): Promise<StartedTarget> {
  if (config.target === undefined) return startEmbedded(config, contract);
  const apiKey = config.apiKey ?? '';
  const userAgent = config.userAgent === undefined ? {} : { userAgent: config.userAgent };
  // Loaded here only: an embedded run's main process never sends a request, and undici's load is about
  // a sixth of a second of its start-up.
  const { preflight } = await import('./preflight.ts');
  await preflight({
    baseUrl: config.target,
    apiKey,
    exhaustApiKey: config.exhaustApiKey,
    planKeys: config.planKeys,
    ...(config.plan ? { plan: { name: config.plan, ...(config.planLimits ? { limits: config.planLimits } : {}) } } : {}),
    timeoutMs: config.timeoutMs,
    ledgerPath,
    network: config.network,
    ...userAgent,
  });
  return {
    fields: {
      baseUrl: config.target,
      apiKey,
      exhaustApiKey: config.exhaustApiKey,
      planKeys: config.planKeys,
      rateWindowMs: config.rateWindowMs ?? MINUTE_MS,
      embedded: false,
    },
    close: async () => {},
  };
}

async function startEmbedded(config: Config, contract: Contract | undefined): Promise<StartedTarget> {
  const apiKey = `embedded-${randomBytes(12).toString('hex')}`;
  const exhaustApiKey = `embedded-exhaust-${randomBytes(12).toString('hex')}`;
  const freeApiKey = `embedded-free-${randomBytes(12).toString('hex')}`;
  const isolationApiKey = `embedded-pair-${randomBytes(12).toString('hex')}`;
  const keys = { apiKey, exhaustApiKey, freeApiKey, isolationApiKey };
  const { waitMs, ...setup } = embeddedOptions(embeddedSetup(process.env.CONFORMANCE_EMBEDDED_SETUP), keys);
  // --rate-window starts the embedded reference's minute at that length (a fault shows only on a long one).
  const stated = config.rateWindowMs === undefined || setup.rateWindowMs !== waitMs ? {} : { rateWindowMs: config.rateWindowMs };
  const server = await startReferenceServer({
    // Config keeps the names as given; the reference refuses a name it does not know (ERR_CONFIG).
    ...combineVariants(...(config.referenceVariants as VariantName[])),
    faults: config.referenceFaults as FaultName[],
    ...(contract ? { contract } : {}),
    ...setup,
    ...stated,
  });
  return {
    fields: {
      baseUrl: server.url,
      apiKey,
      exhaustApiKey,
      isolationApiKey,
      planKeys: [{ plan: 'free', key: freeApiKey }],
      rateWindowMs: stated.rateWindowMs ?? waitMs,
      embedded: true,
    },
    close: () => server.close(),
  };
}
