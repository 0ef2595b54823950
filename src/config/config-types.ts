import type { NetworkSettings } from '../client/network-settings.ts';
import type { OptionValues } from './option-table.ts';
import { EMBEDDED_PLAN, type Limits, type PlanKey, type PlanName } from './plans.ts';
import type { Profile } from './profiles.ts';

/** What a run is configured with (Config), where it comes from (ConfigSources), and the plan it states. */
export interface Config {
  /** Base URL of a remote target (ends in /v1); undefined runs the embedded reference. */
  readonly target: string | undefined;
  readonly apiKey: string | undefined;
  /** A second, low-limit key the rate-limit exhaustion tests spend instead of apiKey (remote only). */
  readonly exhaustApiKey: string | undefined;
  /** The key's plan, when the user states it: X-RateLimit-Limit is then checked against the plan table. */
  readonly plan: PlanName | undefined;
  /** An Enterprise key's custom limits (--plan enterprise:<perMinute>:<perDay>). */
  readonly planLimits: Limits | undefined;
  /** Keys of stated plans that RATE-008 spends to judge those plans' limits (--plan-key, remote only). */
  readonly planKeys: readonly PlanKey[];
  readonly reportDir: string;
  /** Copies of each report at a path of the user's (--html, --json, --junit) and the Markdown summary (--summary-md). */
  readonly outputs: Readonly<{ html?: string | undefined; json?: string | undefined; junit?: string | undefined; summaryMd?: string | undefined }>;
  readonly profile: Profile;
  /** Category ids valid on the target, as decimal strings (int64); undefined = any int64. */
  readonly categoryIds: readonly string[] | undefined;
  readonly readOnly: boolean;
  readonly exhaust: boolean;
  readonly seed: number;
  readonly strict: boolean;
  /** Stop at the first failure that makes the target not conformant (--fail-fast, FAIL_FAST=true). */
  readonly failFast: boolean;
  /** --replay: the failing tests of an earlier report, the only ones this run sends. */
  readonly replay: readonly ReplayTest[] | undefined;
  /** A PARTIAL verdict exits 1 instead of 0 (--require-complete; implied by --certify). */
  readonly requireComplete: boolean;
  /** Areas or requirement ids to run; empty = all. */
  readonly only: readonly string[];
  readonly timeoutMs: number;
  /** The whole run's time limit (--max-duration, seconds on the command line); default per profile. */
  readonly maxDurationMs: number;
  /** True when --max-duration or MAX_DURATION was given (the replay line then carries it). */
  readonly maxDurationGiven: boolean;
  /** Directory for a certification bundle, when asked for. */
  readonly certifyDir: string | undefined;
  readonly expectedDeviations: string | undefined;
  /** Known failures the gate accepts until they expire (--baseline, BASELINE): the deviations format. */
  readonly baseline: string | undefined;
  /** Rewrite the baseline file from this run's failures (--update-baseline). */
  readonly updateBaseline: boolean;
  /** No progress lines while the run waits for rate-limit windows (--quiet, QUIET=true). */
  readonly quiet: boolean;
  /** Ed25519 private key (PEM) that signs the certification bundle's attestation (--sign-key, SIGN_KEY_FILE). */
  readonly signKeyFile: string | undefined;
  /** The implementation certified, as its implementer names it (--implementation name@version). */
  readonly implementation: string | undefined;
  /** sha256 hex of the implementation tested (--implementation-digest sha256:<hex>): the attestation's subject digest. */
  readonly implementationDigest: string | undefined;
  /** --certify into a non-empty directory empties it first (--force); refused otherwise. */
  readonly force: boolean;
  readonly shard: string | undefined;
  /** One value for every shard of a run (--run-nonce): recorded in the report, compared by the merge. */
  readonly runNonce: string | undefined;
  /** The secret a shard MACs its blob and record with, and a merge authenticates them with (--shard-key). */
  readonly shardKey: string | undefined;
  /** A certified merge of shards nobody authenticated: signed, and said so (--trust-shards). */
  readonly trustShards: boolean;
  /** How the target is reached: extra headers, proxy, CA, TLS verification (--header, --proxy, --ca-cert, --insecure). */
  readonly network: NetworkSettings;
  /** The file --ca-cert named (the replay line names it again). */
  readonly caCertFile?: string | undefined;
  /** The target's per-minute window as stated (--rate-window), in ms; undefined: a minute (the embedded reference's own). */
  readonly rateWindowMs: number | undefined;
  /** How long CON-004 holds a keep-alive connection before it asks again on it (--hold-connection); 0: not at all. */
  readonly holdConnectionMs: number;
  /** The User-Agent sent (--user-agent); undefined: the suite's own with --announce, else a common client's chosen per run. */
  readonly userAgent?: string | undefined;
  /** --announce: the suite names itself in its User-Agent. */
  readonly announce: boolean;
  /** Embedded reference only: named faults to inject (to watch the suite fail) and valid variants. */
  readonly referenceFaults: readonly string[];
  readonly referenceVariants: readonly string[];
  /** Warnings about the configuration that do not stop the run. */
  readonly warnings: readonly string[];
}

/** One failing test of a report, to run again (--replay): its vitest id, and the fast-check path of its counterexample. */
export interface ReplayTest {
  id: string;
  name: string;
  requirementId: string;
  /** The property then runs that case only. */
  path?: string;
}

/** Flag values as parsed from the command line (undefined = not given), keyed as the option table's flags. */
export type ConfigFlags = Omit<OptionValues, 'help' | 'version' | 'replay'> & { replay?: readonly ReplayTest[] };

export interface ConfigSources {
  flags?: ConfigFlags;
  env?: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths (--env-file, --config, --report-dir) are read from; default the current directory. */
  cwd?: string;
  /** Source of a fresh seed when none is given. */
  randomSeed?: () => number;
  /** A merge of shards (--merge-reports): the target is the shards', so the merge checks what depends on it. */
  merging?: boolean;
}

/** The key's plan: as stated with --plan, or Enterprise for the embedded reference's own key. */
export function planOf(config: Pick<Config, 'plan' | 'target'>): PlanName | undefined {
  return config.plan ?? (config.target === undefined ? EMBEDDED_PLAN.plan : undefined);
}

/** The plan's custom limits: as stated (enterprise:<perMinute>:<perDay>), or the embedded reference key's own. */
export function planLimitsOf(config: Pick<Config, 'planLimits' | 'target'>): Limits | undefined {
  return config.planLimits ?? (config.target === undefined ? { ...EMBEDDED_PLAN.limits } : undefined);
}
