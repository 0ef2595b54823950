import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { HarnessError } from './errors.ts';
import { INT64_MAX, INT64_MIN } from './json.ts';
import { EMBEDDED_PLAN, type Limits, PLAN_FORMS, type PlanName, parsePlan } from './plans.ts';

import { PROFILES, PROFILE_RULES, type Profile, isProfile } from './profiles.ts';

export { PROFILES, PROFILE_BUDGETS, type Profile } from './profiles.ts';

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
  readonly reportDir: string;
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
  /** Embedded reference only: named faults to inject (to watch the suite fail) and valid variants. */
  readonly referenceFaults: readonly string[];
  readonly referenceVariants: readonly string[];
  /** Warnings about the configuration that do not stop the run. */
  readonly warnings: readonly string[];
  /** The User-Agent every request carries (--user-agent); undefined: `animal-store-conformance/<version>`, empty: none. */
  readonly userAgent?: string;
}

/**
 * What a setting is when neither flag, environment nor .env names it: the one table every default is read
 * from (the CLI's usage, the report of a rejected configuration).
 */
export const CONFIG_DEFAULTS = Object.freeze({
  reportDir: 'reports',
  /** A remote target gets the profile CI uses; the embedded reference, which costs nothing, the fullest. */
  remoteProfile: 'standard',
  embeddedProfile: 'thorough',
  timeoutMs: 10_000,
  readOnly: false,
  exhaust: true,
  strict: false,
  failFast: false,
  requireComplete: false,
  quiet: false,
} as const satisfies Record<string, string | number | boolean>);

/** One failing test of a report, to run again (--replay): its vitest id, and the fast-check path of its counterexample. */
export interface ReplayTest {
  id: string;
  name: string;
  requirementId: string;
  /** The property then runs that case only. */
  path?: string;
}

/** Flag values as parsed from the command line (undefined = not given). */
export interface ConfigFlags {
  target?: string;
  apiKey?: string;
  exhaustKey?: string;
  plan?: string;
  reportDir?: string;
  profile?: string;
  categoryIds?: string;
  readOnly?: boolean;
  exhaust?: boolean;
  seed?: string;
  strict?: boolean;
  failFast?: boolean;
  replay?: readonly ReplayTest[];
  requireComplete?: boolean;
  only?: string;
  timeout?: string;
  maxDuration?: string;
  certify?: string;
  expectedDeviations?: string;
  baseline?: string;
  updateBaseline?: boolean;
  quiet?: boolean;
  signKey?: string;
  implementation?: string;
  implementationDigest?: string;
  force?: boolean;
  shard?: string;
  referenceFaults?: string;
  referenceVariants?: string;
}

export interface ConfigSources {
  flags?: ConfigFlags;
  env?: Readonly<Record<string, string | undefined>>;
  /** Directory whose .env file is read (not loaded into process.env); default the current directory. */
  cwd?: string;
  /** Source of a fresh seed when none is given. */
  randomSeed?: () => number;
}

/** Merges flags > environment > .env > defaults into one validated, frozen Config. */
export function loadConfig(sources: ConfigSources = {}): Config {
  const cwd = sources.cwd ?? process.cwd();
  const dotenvPath = resolve(cwd, '.env');
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath)) : {};
  const env = { ...fromFile, ...setVariables(sources.env ?? process.env) };
  const flags = sources.flags ?? {};
  // An empty flag counts as not given: `--api-key "$API_KEY"` with API_KEY unset in the shell (the key
  // lives in .env) must not override the key from .env.
  const pick = (flag: string | undefined, name: string): string | undefined => emptyToUndefined(flag) ?? emptyToUndefined(env[name]);
  const warnings: string[] = [];

  const target = normaliseTarget(pick(flags.target, 'TARGET_BASE_URL'), warnings);
  const apiKey = pick(flags.apiKey, 'API_KEY');
  if (target && !apiKey) {
    throw new HarnessError('ERR_CONFIG', 'an API key is required for a remote target: pass --api-key or set API_KEY');
  }
  const exhaustApiKey = pick(flags.exhaustKey, 'EXHAUST_API_KEY');
  if (exhaustApiKey && !target)
    throw new HarnessError('ERR_CONFIG', '--exhaust-key applies to a remote target; the embedded reference has its own exhaustion key');
  if (exhaustApiKey && exhaustApiKey === apiKey)
    throw new HarnessError('ERR_CONFIG', '--exhaust-key must be a second key, not the main one (it is spent to provoke a 429)');
  const planText = pick(flags.plan, 'PLAN');
  const stated = planText === undefined ? undefined : parsePlan(planText);
  if (planText !== undefined && !stated) throw new HarnessError('ERR_CONFIG', `--plan must be one of ${PLAN_FORMS}; got "${planText}"`);
  if (planText !== undefined && !target) throw new HarnessError('ERR_CONFIG', '--plan applies to a remote target: it names the plan of your key');
  const profileText = pick(flags.profile, 'PROFILE') ?? (target ? CONFIG_DEFAULTS.remoteProfile : CONFIG_DEFAULTS.embeddedProfile);
  if (!isProfile(profileText)) {
    throw new HarnessError('ERR_CONFIG', `--profile must be one of ${PROFILES.join(', ')}; got "${profileText}"`);
  }
  const seedText = pick(flags.seed, 'SEED');
  const seed = seedText === undefined ? (sources.randomSeed ?? defaultSeed)() : parseSeed(seedText);
  const timeoutText = pick(flags.timeout, 'TIMEOUT_MS');
  const timeoutMs = timeoutText === undefined ? CONFIG_DEFAULTS.timeoutMs : parsePositiveInt(timeoutText, '--timeout');
  const maxDurationText = pick(flags.maxDuration, 'MAX_DURATION');
  const maxDurationMs = maxDurationText === undefined ? PROFILE_RULES[profileText].maxDurationMs : parsePositiveInt(maxDurationText, '--max-duration') * 1_000;
  const certifyDir = pick(flags.certify, 'CERTIFY_DIR');
  const shard = parseShard(flags.shard);
  if (certifyDir !== undefined) {
    // A certificate speaks of the whole interface: the most thorough run, nothing left out on purpose.
    const only = pick(flags.only, 'ONLY');
    if (profileText !== 'thorough')
      throw new HarnessError('ERR_CONFIG', `--certify needs --profile thorough (got ${profileText}): a certificate speaks of the whole interface`);
    if (only) throw new HarnessError('ERR_CONFIG', '--certify cannot be combined with --only: a certificate speaks of every requirement');
    if (shard) throw new HarnessError('ERR_CONFIG', '--certify cannot be given to one shard: certify the merged run (--merge-reports with --certify)');
    // RATE-008 is a MUST: a certificate of a remote target must test it, so it needs the key's plan.
    if (target && !stated)
      throw new HarnessError('ERR_CONFIG', `--certify of a remote target needs --plan (${PLAN_FORMS}): RATE-008 checks the key's plan limits`);
  }
  const failFast = flags.failFast ?? parseBool(env.FAIL_FAST, 'FAIL_FAST') ?? CONFIG_DEFAULTS.failFast;
  if (flags.replay && (certifyDir !== undefined || shard !== undefined)) {
    throw new HarnessError('ERR_CONFIG', '--replay runs a few failing tests again: it cannot certify, nor be one shard');
  }
  if (failFast && certifyDir !== undefined) {
    throw new HarnessError('ERR_CONFIG', '--certify cannot be combined with --fail-fast: a certificate reports every requirement');
  }
  const baseline = pick(flags.baseline, 'BASELINE');
  if (flags.updateBaseline && !baseline) throw new HarnessError('ERR_CONFIG', '--update-baseline needs --baseline <file>: the file to write');
  if (shard && seedText === undefined) {
    throw new HarnessError('ERR_CONFIG', '--shard needs --seed: every shard must run the same cases, or their blobs cannot be merged');
  }

  return Object.freeze({
    target,
    apiKey,
    exhaustApiKey,
    plan: stated?.plan,
    planLimits: stated?.limits,
    reportDir: resolve(cwd, pick(flags.reportDir, 'REPORT_DIR') ?? CONFIG_DEFAULTS.reportDir),
    profile: profileText as Profile,
    categoryIds: parseCategoryIds(pick(flags.categoryIds, 'CATEGORY_IDS')),
    readOnly: flags.readOnly ?? parseBool(env.READ_ONLY, 'READ_ONLY') ?? CONFIG_DEFAULTS.readOnly,
    exhaust: flags.exhaust ?? parseBool(env.EXHAUST, 'EXHAUST') ?? CONFIG_DEFAULTS.exhaust,
    seed,
    strict: flags.strict ?? parseBool(env.STRICT, 'STRICT') ?? CONFIG_DEFAULTS.strict,
    failFast,
    replay: flags.replay,
    requireComplete:
      certifyDir !== undefined || (flags.requireComplete ?? parseBool(env.REQUIRE_COMPLETE, 'REQUIRE_COMPLETE') ?? CONFIG_DEFAULTS.requireComplete),
    only: (pick(flags.only, 'ONLY') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    timeoutMs,
    maxDurationMs,
    maxDurationGiven: maxDurationText !== undefined,
    certifyDir,
    expectedDeviations: pick(flags.expectedDeviations, 'EXPECTED_DEVIATIONS'),
    baseline,
    updateBaseline: flags.updateBaseline === true,
    quiet: flags.quiet ?? parseBool(env.QUIET, 'QUIET') ?? CONFIG_DEFAULTS.quiet,
    signKeyFile: pick(flags.signKey, 'SIGN_KEY_FILE'),
    implementation: parseImplementation(pick(flags.implementation, 'IMPLEMENTATION')),
    implementationDigest: parseImplementationDigest(pick(flags.implementationDigest, 'IMPLEMENTATION_DIGEST')),
    force: flags.force === true,
    shard,
    referenceFaults: referenceList(flags.referenceFaults, target, '--reference-faults'),
    referenceVariants: referenceList(flags.referenceVariants, target, '--reference-variants'),
    warnings,
  });
}

function normaliseTarget(raw: string | undefined, warnings: string[]): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new HarnessError('ERR_CONFIG', `--target is not a URL: "${raw}" (expected e.g. https://staging.example.com/v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError('ERR_CONFIG', `--target must be an http(s) URL; got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new HarnessError('ERR_CONFIG', '--target must not carry credentials; pass the key with --api-key or API_KEY');
  }
  if (url.search || url.hash) {
    throw new HarnessError('ERR_CONFIG', '--target must be a base URL without query or fragment');
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (!base.endsWith('/v1')) warnings.push(`the target's base path does not end in /v1: ${base} (VER-001 will fail)`);
  return base;
}

function parseCategoryIds(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) throw new HarnessError('ERR_CONFIG', '--category-ids needs at least one id');
  return ids.map((id) => {
    if (!/^-?\d+$/.test(id)) throw new HarnessError('ERR_CONFIG', `--category-ids: "${id}" is not an integer`);
    const value = BigInt(id);
    if (value < INT64_MIN || value > INT64_MAX) throw new HarnessError('ERR_CONFIG', `--category-ids: ${id} is outside int64`);
    return value.toString();
  });
}

function referenceList(raw: string | undefined, target: string | undefined, flag: string): string[] {
  const names = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length > 0 && target) throw new HarnessError('ERR_CONFIG', `${flag} applies to the embedded reference only, not to --target`);
  return names;
}

function parseSeed(text: string): number {
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Math.abs(Number(text)) > 2 ** 31) {
    throw new HarnessError('ERR_CONFIG', `--seed must be an integer within ±2^31; got "${text}"`);
  }
  return Number(text);
}

function parsePositiveInt(text: string, name: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1) throw new HarnessError('ERR_CONFIG', `${name} must be a positive integer; got "${text}"`);
  return value;
}

function parseShard(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) {
    throw new HarnessError('ERR_CONFIG', `--shard must look like i/n with 1 <= i <= n; got "${text}"`);
  }
  return text;
}

function parseBool(text: string | undefined, name: string): boolean | undefined {
  if (text === undefined || text === '') return undefined;
  if (/^(1|true|yes|on)$/i.test(text)) return true;
  if (/^(0|false|no|off)$/i.test(text)) return false;
  throw new HarnessError('ERR_CONFIG', `${name} must be true or false; got "${text}"`);
}

/** The environment variables that are set (a variable can be declared without a value). */
function setVariables(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function defaultSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/**
 * --implementation name@version: printable text on one line (no control, format or line-separator
 * characters), so a certificate's name reads the same in every output and adds no line to any of them.
 */
function parseImplementation(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  // Cc (controls), Cf (format: bidi overrides, zero-width), Zl/Zp (line and paragraph separators).
  if (text.trim() === '' || text.length > 200 || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(text)) {
    throw new HarnessError('ERR_CONFIG', '--implementation must be printable text on one line (name@version, at most 200 characters)');
  }
  return text;
}

/** --implementation-digest sha256:<64 hex>, kept as the hex. */
function parseImplementationDigest(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = /^sha256:([0-9a-f]{64})$/i.exec(text.trim());
  if (!match?.[1]) throw new HarnessError('ERR_CONFIG', `--implementation-digest must be sha256:<64 hex digits>; got "${text}"`);
  return match[1].toLowerCase();
}

/** The key's plan: as stated with --plan, or Enterprise for the embedded reference's own key. */
export function planOf(config: Pick<Config, 'plan' | 'target'>): PlanName | undefined {
  return config.plan ?? (config.target === undefined ? EMBEDDED_PLAN.plan : undefined);
}

/** The plan's custom limits: as stated (enterprise:<perMinute>:<perDay>), or the embedded reference key's own. */
export function planLimitsOf(config: Pick<Config, 'planLimits' | 'target'>): Limits | undefined {
  return config.planLimits ?? (config.target === undefined ? { ...EMBEDDED_PLAN.limits } : undefined);
}
