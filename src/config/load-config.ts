import { resolve } from 'node:path';
import { CONFIG_DEFAULTS } from './defaults.ts';
import { networkSettings } from './network-flags.ts';
import { resolveReportDir } from './report-dir.ts';
import { type RawSetting, resolveSettings } from './setting-layers.ts';
import {
  normaliseTarget,
  parseCategoryIds,
  parseImplementation,
  parseImplementationDigest,
  parsePositiveInt,
  parseSeed,
  parseShard,
  parseShardKey,
  refuseControlCharacters,
  splitList,
} from './values.ts';
import { HarnessError } from '../errors.ts';
import { PLAN_FORMS, parsePlan } from './plans.ts';
import type { Config, ConfigSources } from './config-types.ts';
import { parsePlanKeys } from './plan-keys.ts';
import { shortKeyWarnings } from './short-keys.ts';
import { rateWindowMs } from './rate-window-option.ts';

import { PROFILES, PROFILE_RULES, type Profile, isProfile } from './profiles.ts';

export { PROFILES, PROFILE_BUDGETS, type Profile } from './profiles.ts';
export { planLimitsOf, planOf, type Config, type ConfigFlags, type ConfigSources, type ReplayTest } from './config-types.ts';

export { CONFIG_DEFAULTS } from './defaults.ts';

/**
 * Merges flags > environment (ASC_ names, and the credential aliases) > --env-file > --config > defaults
 * into one validated, frozen Config. Every value that is wrong is named by where it came from.
 */
export function loadConfig(sources: ConfigSources = {}): Config {
  const cwd = sources.cwd ?? process.cwd();
  const env = sources.env ?? process.env;
  const flags = sources.flags ?? {};
  const { replay: _replayTests, ...flagValues } = flags;
  const resolved = resolveSettings({ flags: flagValues, env, cwd });
  // A merge sends nothing: the target, its keys and how it was reached are the shards' (their records),
  // so a committed config's target, or a key the merge job does not have, neither applies nor is demanded.
  const settings = sources.merging === true ? { ...resolved, get: (name: string) => (MERGE_IGNORES.has(name) ? undefined : resolved.get(name)) } : resolved;
  const text = (name: string): string | undefined => {
    const value = settings.get(name)?.value;
    return value === undefined ? undefined : String(value);
  };
  const bool = (name: string): boolean | undefined => settings.get(name)?.value as boolean | undefined;
  const from = (name: string): string => settings.get(name)?.from ?? `--${name}`;
  const warnings: string[] = [...settings.notices];

  const target = normaliseTarget(text('target'), from('target'), warnings);
  const apiKey = text('api-key');
  if (target && !apiKey) {
    throw new HarnessError('ERR_CONFIG', 'an API key is required for a remote target: pass --api-key or set API_KEY');
  }
  if (apiKey !== undefined) refuseControlCharacters(apiKey, from('api-key'), 'key');
  const exhaustApiKey = text('exhaust-key');
  if (exhaustApiKey !== undefined) refuseControlCharacters(exhaustApiKey, from('exhaust-key'), 'key');
  if (exhaustApiKey && !target)
    throw new HarnessError('ERR_CONFIG', `${from('exhaust-key')} applies to a remote target; the embedded reference has its own exhaustion key`);
  if (exhaustApiKey && exhaustApiKey === apiKey)
    throw new HarnessError('ERR_CONFIG', '--exhaust-key must be a second key, not the main one (it is spent to provoke a 429)');
  const planText = text('plan');
  const stated = planText === undefined ? undefined : parsePlan(planText);
  if (planText !== undefined && !stated) throw new HarnessError('ERR_CONFIG', `${from('plan')} must be one of ${PLAN_FORMS}; got "${planText}"`);
  if (planText !== undefined && !target) throw new HarnessError('ERR_CONFIG', `${from('plan')} applies to a remote target: it names the plan of your key`);
  const planKeys = parsePlanKeys(listSetting(settings.get('plan-key')), target, [apiKey, exhaustApiKey]);
  warnings.push(
    ...shortKeyWarnings([
      { key: apiKey, from: from('api-key') },
      { key: exhaustApiKey, from: from('exhaust-key') },
      ...planKeys.map((k) => ({ key: k.key, from: `${from('plan-key')} (${k.plan})` })),
    ]),
  );
  const profileText = text('profile') ?? (target ? CONFIG_DEFAULTS.remoteProfile : CONFIG_DEFAULTS.embeddedProfile);
  if (!isProfile(profileText)) {
    throw new HarnessError('ERR_CONFIG', `${from('profile')} must be one of ${PROFILES.join(', ')}; got "${profileText}"`);
  }
  const seedText = text('seed');
  const seed = seedText === undefined ? (sources.randomSeed ?? defaultSeed)() : parseSeed(seedText, from('seed'));
  const timeoutText = text('timeout');
  const timeoutMs = timeoutText === undefined ? CONFIG_DEFAULTS.timeoutMs : parsePositiveInt(timeoutText, from('timeout'));
  const maxDurationText = text('max-duration');
  const maxDurationMs =
    maxDurationText === undefined ? PROFILE_RULES[profileText].maxDurationMs : parsePositiveInt(maxDurationText, from('max-duration')) * 1_000;
  const certifyDir = text('certify');
  const shard = parseShard(text('shard'), from('shard'));
  const only = splitList(text('only'));
  const network = networkSettings({
    target,
    headers: listSetting(settings.get('header')),
    proxy: stringSetting(settings.get('proxy')),
    vantageProxy: stringSetting(settings.get('vantage-proxy')),
    caCert: stringSetting(settings.get('ca-cert')),
    insecure: bool('insecure') ?? false,
    env,
    cwd,
  });
  if (certifyDir !== undefined) {
    // A certificate speaks of the whole interface: the most thorough run, nothing left out on purpose.
    // A merge's profile is its shards' (checked by the merge).
    if (profileText !== 'thorough' && sources.merging !== true)
      throw new HarnessError('ERR_CONFIG', `--certify needs --profile thorough (got ${profileText}): a certificate speaks of the whole interface`);
    if (only.length > 0) throw new HarnessError('ERR_CONFIG', `--certify cannot be combined with ${from('only')}: a certificate speaks of every requirement`);
    if (shard) throw new HarnessError('ERR_CONFIG', '--certify cannot be given to one shard: certify the merged run (--merge-reports with --certify)');
    if (network.insecure)
      throw new HarnessError('ERR_CONFIG', `--certify cannot be combined with ${from('insecure')}: a certificate needs the target's TLS verified`);
    // RATE-008 is a MUST: a certificate of a remote target must test it, so it needs the key's plan.
    if (target && !stated)
      throw new HarnessError('ERR_CONFIG', `--certify of a remote target needs --plan (${PLAN_FORMS}): RATE-008 checks the key's plan limits`);
  }
  // The digest names the artefact tested: the embedded reference is no artefact of the implementer's.
  if (text('implementation-digest') !== undefined && !target && sources.merging !== true)
    throw new HarnessError('ERR_CONFIG', `${from('implementation-digest')} needs --target: without it the suite tests its own embedded reference`);
  const failFast = bool('fail-fast') ?? CONFIG_DEFAULTS.failFast;
  if (flags.replay && (certifyDir !== undefined || shard !== undefined)) {
    throw new HarnessError('ERR_CONFIG', '--replay runs a few failing tests again: it cannot certify, nor be one shard');
  }
  if (bool('trust-shards') === true && sources.merging !== true)
    throw new HarnessError('ERR_CONFIG', `${from('trust-shards')} applies to --merge-reports: it says the merge trusts its shards unauthenticated`);
  if (failFast && certifyDir !== undefined) {
    throw new HarnessError('ERR_CONFIG', '--certify cannot be combined with --fail-fast: a certificate reports every requirement');
  }
  const baseline = text('baseline');
  if (flags.updateBaseline && !baseline) throw new HarnessError('ERR_CONFIG', '--update-baseline needs --baseline <file>: the file to write');
  if (shard && seedText === undefined) {
    throw new HarnessError('ERR_CONFIG', '--shard needs --seed: every shard must run the same cases, or their blobs cannot be merged');
  }
  const path = (name: string) => (text(name) === undefined ? undefined : resolve(cwd, text(name) as string));

  return Object.freeze({
    target,
    apiKey,
    exhaustApiKey,
    plan: stated?.plan,
    planLimits: stated?.limits,
    planKeys,
    reportDir: resolveReportDir(text('report-dir'), cwd),
    outputs: Object.freeze({ html: path('html'), json: path('json'), junit: path('junit'), summaryMd: path('summary-md') }),
    profile: profileText as Profile,
    categoryIds: parseCategoryIds(text('category-ids'), from('category-ids')),
    readOnly: bool('read-only') ?? CONFIG_DEFAULTS.readOnly,
    exhaust: bool('exhaust') ?? CONFIG_DEFAULTS.exhaust,
    seed,
    strict: bool('strict') ?? CONFIG_DEFAULTS.strict,
    failFast,
    replay: flags.replay,
    requireComplete: certifyDir !== undefined || (bool('require-complete') ?? CONFIG_DEFAULTS.requireComplete),
    only,
    timeoutMs,
    maxDurationMs,
    maxDurationGiven: maxDurationText !== undefined,
    certifyDir,
    expectedDeviations: text('expected-deviations'),
    baseline,
    updateBaseline: flags.updateBaseline === true,
    quiet: bool('quiet') ?? CONFIG_DEFAULTS.quiet,
    signKeyFile: text('sign-key'),
    implementation: parseImplementation(text('implementation'), from('implementation')),
    implementationDigest: parseImplementationDigest(text('implementation-digest'), from('implementation-digest')),
    force: flags.force === true,
    shard,
    runNonce: text('run-nonce'),
    shardKey: parseShardKey(text('shard-key'), from('shard-key'), { shard, merging: sources.merging === true, runNonce: text('run-nonce') }),
    trustShards: bool('trust-shards') ?? false,
    network,
    caCertFile: path('ca-cert'),
    announce: bool('announce') ?? false,
    rateWindowMs: rateWindowMs(text('rate-window'), from('rate-window')),
    holdConnectionMs: holdConnectionMs(text('hold-connection'), from('hold-connection'), target),
    // --user-agent '' (or ASC_USER_AGENT set empty) sends no User-Agent at all.
    userAgent: flags.userAgent === '' || env.ASC_USER_AGENT === '' ? '' : text('user-agent'),
    referenceFaults: referenceList(text('reference-faults'), target, '--reference-faults'),
    referenceVariants: referenceList(text('reference-variants'), target, '--reference-variants'),
    warnings,
  });
}

/** Settings of the target a merge ignores: it sends nothing, and what the shards reached is in their records. */
const MERGE_IGNORES: ReadonlySet<string> = new Set([
  'target',
  'api-key',
  'exhaust-key',
  'plan',
  'plan-key',
  'header',
  'proxy',
  'ca-cert',
  'insecure',
  'reference-faults',
  'reference-variants',
  'vantage-proxy',
]);

/** --hold-connection in seconds, as milliseconds: 45 s against a remote target (past a 40 s latch), a quarter second embedded. */
function holdConnectionMs(text: string | undefined, from: string, target: string | undefined): number {
  if (text === undefined) return target ? CONFIG_DEFAULTS.holdConnectionS * 1_000 : CONFIG_DEFAULTS.embeddedHoldConnectionMs;
  if (!/^\d{1,5}$/.test(text.trim())) throw new HarnessError('ERR_CONFIG', `${from} must be a whole number of seconds (0: not at all); got "${text}"`);
  return Number(text.trim()) * 1_000;
}

function stringSetting(setting: RawSetting | undefined): { value: string; from: string } | undefined {
  return setting === undefined ? undefined : { value: String(setting.value), from: setting.from };
}

function listSetting(setting: RawSetting | undefined): { value: readonly string[]; from: string } | undefined {
  if (setting === undefined) return undefined;
  return { value: Array.isArray(setting.value) ? (setting.value as readonly string[]) : [String(setting.value)], from: setting.from };
}

function referenceList(raw: string | undefined, target: string | undefined, flag: string): string[] {
  const names = splitList(raw);
  if (names.length > 0 && target) throw new HarnessError('ERR_CONFIG', `${flag} applies to the embedded reference only, not to --target`);
  return names;
}

function defaultSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
