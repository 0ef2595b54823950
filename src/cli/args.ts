import { parseArgs } from 'node:util';
import type { Config, ConfigFlags } from '../config/load-config.ts';
import { CONFIG_DEFAULTS } from '../config/defaults.ts';
import { planKeyVariable } from '../config/plans.ts';
import { reportDirWithoutConfig } from '../config/report-dir.ts';
import { OPTIONS, type OptionSpec, flagNames, keyOf, optionNamed } from '../config/option-table.ts';
import { HarnessError } from '../errors.ts';
import { nearestNames } from '../text/nearest-names.ts';
import { usageText } from './usage.ts';

export const USAGE = usageText();

export interface CliArgs {
  help: boolean;
  mergeReports: string | undefined;
  flags: ConfigFlags;
}

type ParseOptions = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** node:util's option list, from the table: a list option may repeat, a negatable boolean has its --no- form. */
function parserOptions(): ParseOptions {
  const out: ParseOptions = {};
  for (const option of OPTIONS as readonly OptionSpec[]) {
    out[option.name] = {
      type: option.type === 'boolean' ? 'boolean' : 'string',
      ...(option.short ? { short: option.short } : {}),
      ...(option.type === 'list' ? { multiple: true } : {}),
    };
    if (option.negatable) out[`no-${option.name}`] = { type: 'boolean' };
  }
  return out;
}

/** The option an argument names (`--target`, `--target=x`, `-q`), if any. */
function optionOf(arg: string): OptionSpec | undefined {
  if (arg.startsWith('--')) return optionNamed(arg.slice(2).split('=')[0] ?? '');
  if (/^-[A-Za-z]$/.test(arg)) return (OPTIONS as readonly OptionSpec[]).find((option) => option.short === arg.slice(1));
  return undefined;
}

/**
 * Arguments made plain for node's parser, with the mistakes it words badly said in ours: an unknown flag
 * gets the nearest known ones; a flag without its value says so (not "argument is ambiguous"); a value that
 * starts with "-" and is no flag (`--seed -5`) is joined to its flag, and its own check says what is wrong.
 */
function checkedArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  const known = flagNames();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith('--') && arg !== '--') {
      const name = arg.slice(2).split('=')[0] ?? '';
      if (!known.includes(name)) {
        const near = nearestNames(name, known);
        throw new HarnessError(
          'ERR_CONFIG',
          `unknown option --${name}${near.length > 0 ? `; did you mean ${near.map((n) => `--${n}`).join(', ')}?` : ''} (see --help)`,
        );
      }
    } else if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      throw new HarnessError('ERR_CONFIG', `unexpected argument "${arg}": every option is a --flag (see --help)`);
    }
    const option = optionOf(arg);
    const next = argv[i + 1];
    if (option && option.type !== 'boolean' && !arg.includes('=')) {
      if (next === undefined || optionOf(next) !== undefined || next === '--help' || next === '-h') {
        throw new HarnessError('ERR_CONFIG', `--${option.name} needs a value${option.value ? ` (${option.value})` : ''} (see --help)`);
      }
      out.push(next.startsWith('-') ? `--${option.name}=${next}` : arg, ...(next.startsWith('-') ? [] : [next]));
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** `--help`/`-h` or `--version`/`-V` anywhere: answered before anything else is parsed or written. */
export function infoRequest(argv: readonly string[]): 'help' | 'version' | undefined {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) return 'help';
  if (argv.some((arg) => arg === '--version' || arg === '-V')) return 'version';
  return undefined;
}

export function parseCliArgs(argv: readonly string[]): CliArgs {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({ args: checkedArgv(argv), allowPositionals: false, strict: true, options: parserOptions() }));
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new HarnessError('ERR_CONFIG', `${message} (see --help)`);
  }
  const flags: Record<string, unknown> = {};
  for (const option of OPTIONS as readonly OptionSpec[]) {
    if (option.group === 'Information' || option.name === 'replay' || option.name === 'merge-reports') continue;
    const value = values[option.name];
    if (value !== undefined) flags[keyOf(option.name)] = value;
  }
  // --no-exhaust wins over --exhaust, as it always has.
  if (values['no-exhaust'] === true) flags.exhaust = false;
  return { help: values.help === true, mergeReports: values['merge-reports'] as string | undefined, flags: flags as ConfigFlags };
}

/**
 * The report directory the user asked for, read from raw arguments that may not parse (an unknown flag):
 * the last --report-dir, then as reportDirWithoutConfig.
 */
export function reportDirOf(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): string {
  for (let i = argv.length - 1; i >= 0; i -= 1) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--report-dir=')) return reportDirWithoutConfig(arg.slice('--report-dir='.length), env);
    if (arg === '--report-dir' && argv[i + 1] !== undefined) return reportDirWithoutConfig(argv[i + 1], env);
  }
  return reportDirWithoutConfig(undefined, env);
}

/**
 * The command that reproduces a run: same target, profile, seed and every option that changes the verdict.
 * The key stays in $API_KEY: an empty "$API_KEY" counts as not given, so a key from .env still applies.
 */
export function reproduceCommand(config: Config): string {
  const parts = ['npx animal-store-conformance'];
  for (const option of OPTIONS as readonly OptionSpec[]) {
    if (!option.replay) continue;
    const shown = REPLAY_FORMS[option.name]?.(config);
    if (shown === true) parts.push(`--${option.name}`);
    else if (typeof shown === 'string') parts.push(shown.startsWith('--') ? shown : `--${option.name} ${shown}`);
  }
  return parts.join(' ');
}

/**
 * How the replay line writes each option the table marks `replay`: true for a bare flag, a value, a whole
 * argument (`--no-exhaust`, `--seed=-5`), or undefined when the run used the default.
 */
export const REPLAY_FORMS: Readonly<Record<string, (config: Config) => string | true | undefined>> = {
  target: (c) => (c.target ? shellQuote(c.target) : undefined),
  // The keys stay in the environment: an empty "$API_KEY" counts as not given.
  'api-key': (c) => (c.target ? '"$API_KEY"' : undefined),
  'exhaust-key': (c) => (c.exhaustApiKey ? '"$EXHAUST_API_KEY"' : undefined),
  // Each plan key from a variable of its own, the one its curl lines name (FREE_PLAN_KEY, …).
  'plan-key': (c) => (c.planKeys.length > 0 ? c.planKeys.map((k) => `--plan-key ${k.plan}="$${planKeyVariable(k.plan)}"`).join(' ') : undefined),
  plan: (c) => (c.plan ? `${c.plan}${c.planLimits ? `:${c.planLimits.perMinute}:${c.planLimits.perDay}` : ''}` : undefined),
  'rate-window': (c) => (c.rateWindowMs !== undefined ? String(c.rateWindowMs / 1000) : undefined),
  'category-ids': (c) => c.categoryIds?.join(','),
  timeout: (c) => (c.timeoutMs !== CONFIG_DEFAULTS.timeoutMs ? String(c.timeoutMs) : undefined),
  'max-duration': (c) => (c.maxDurationGiven ? String(Math.round(c.maxDurationMs / 1000)) : undefined),
  'ca-cert': (c) => (c.caCertFile ? shellQuote(c.caCertFile) : undefined),
  insecure: (c) => (c.network.insecure ? true : undefined),
  announce: (c) => (c.announce ? true : undefined),
  'hold-connection': (c) =>
    c.holdConnectionMs !== (c.target ? CONFIG_DEFAULTS.holdConnectionS * 1_000 : CONFIG_DEFAULTS.embeddedHoldConnectionMs)
      ? String(Math.round(c.holdConnectionMs / 1000))
      : undefined,
  'user-agent': (c) => (c.userAgent !== undefined ? shellQuote(c.userAgent) : undefined),
  profile: (c) => c.profile,
  'read-only': (c) => (c.readOnly ? true : undefined),
  exhaust: (c) => (c.exhaust ? undefined : '--no-exhaust'),
  // --seed=-5, not --seed -5: the parser would take "-5" for an option.
  seed: (c) => `--seed=${c.seed}`,
  only: (c) => (c.only.length > 0 ? shellQuote(c.only.join(',')) : undefined),
  strict: (c) => (c.strict ? true : undefined),
  'fail-fast': (c) => (c.failFast ? true : undefined),
  'require-complete': (c) => (c.requireComplete ? true : undefined),
  shard: (c) => c.shard,
  'run-nonce': (c) => (c.runNonce ? shellQuote(c.runNonce) : undefined),
  'expected-deviations': (c) => (c.expectedDeviations ? shellQuote(c.expectedDeviations) : undefined),
  baseline: (c) => (c.baseline ? shellQuote(c.baseline) : undefined),
  'reference-faults': (c) => (c.referenceFaults.length > 0 ? c.referenceFaults.join(',') : undefined),
  'reference-variants': (c) => (c.referenceVariants.length > 0 ? c.referenceVariants.join(',') : undefined),
};

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
