import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import { EMBEDDED_PLAN } from '../plans.ts';
import type { Contract } from '../contract/index.ts';
import { type FaultName, type VariantName, combineVariants, startReferenceServer } from '../reference/index.ts';
import { preflight } from './preflight.ts';

/** The embedded reference's rate window: short, so the recovery test waits seconds, not a minute. */
export const EMBEDDED_RATE_WINDOW_MS = 2_000;
/** Requests the embedded exhaustion key may make per window. */
export const EMBEDDED_EXHAUST_LIMIT = 12;

/** What a run knows of its target once it is up: where it is and which keys reach it. */
export interface TargetFields {
  baseUrl: string;
  apiKey: string;
  /** A key the exhaustion tests spend instead of apiKey: the embedded reference's small one, or --exhaust-key. */
  exhaustApiKey: string | undefined;
  /** Embedded reference only: the rate window, so the recovery test knows how long it may wait. */
  rateWindowMs: number | undefined;
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
  await preflight({ baseUrl: config.target, apiKey, exhaustApiKey: config.exhaustApiKey, timeoutMs: config.timeoutMs, ledgerPath });
  return {
    fields: { baseUrl: config.target, apiKey, exhaustApiKey: config.exhaustApiKey, rateWindowMs: undefined, embedded: false },
    close: async () => {},
  };
}

async function startEmbedded(config: Config, contract: Contract | undefined): Promise<StartedTarget> {
  const apiKey = `embedded-${randomBytes(12).toString('hex')}`;
  const exhaustApiKey = `embedded-exhaust-${randomBytes(12).toString('hex')}`;
  const server = await startReferenceServer({
    // Config keeps the names as given; the reference refuses a name it does not know (ERR_CONFIG).
    ...combineVariants(...(config.referenceVariants as VariantName[])),
    faults: config.referenceFaults as FaultName[],
    ...(contract ? { contract } : {}),
    keys: [
      { key: apiKey, plan: EMBEDDED_PLAN.plan, ...EMBEDDED_PLAN.limits },
      { key: exhaustApiKey, plan: 'enterprise', perMinute: EMBEDDED_EXHAUST_LIMIT, perDay: 1_000_000_000 },
    ],
    rateWindowMs: EMBEDDED_RATE_WINDOW_MS,
  });
  return {
    fields: { baseUrl: server.url, apiKey, exhaustApiKey, rateWindowMs: EMBEDDED_RATE_WINDOW_MS, embedded: true },
    close: () => server.close(),
  };
}
