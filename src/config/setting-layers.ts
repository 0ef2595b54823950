import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { HarnessError } from '../errors.ts';
import { nearestNames } from '../text/nearest-names.ts';
import { ENV_PREFIX, OPTIONS, type OptionSpec, type OptionValues, configFileOptions, keyOf, optionNamed } from './option-table.ts';
import { ajvModules } from '../contract/ajv-modules.ts';
import { parseYaml } from '../text/yaml-data.ts';

/** One setting as found: its raw value and where it came from, in the words an error message uses. */
export interface RawSetting {
  readonly value: string | boolean | readonly string[];
  /** `--profile`, `ASC_PROFILE (environment)`, `ASC_PROFILE (env file ci.env)`, `profile (config file asc.yaml)`. */
  readonly from: string;
}

export interface SettingLayers {
  readonly flags: OptionValues;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative paths (--env-file, --config) are read from here. */
  readonly cwd: string;
}

export interface Settings {
  get(name: string): RawSetting | undefined;
  /** Things worth saying about where settings came from (names the suite no longer reads, a .env left unread). */
  readonly notices: readonly string[];
}

/** The unprefixed names earlier versions read: a job's PLAN or ONLY is somebody else's now. */
const RETIRED_NAMES = [
  'PLAN',
  'PROFILE',
  'ONLY',
  'SEED',
  'STRICT',
  'QUIET',
  'READ_ONLY',
  'EXHAUST',
  'FAIL_FAST',
  'REQUIRE_COMPLETE',
  'REPORT_DIR',
  'TIMEOUT_MS',
  'MAX_DURATION',
  'CATEGORY_IDS',
  'CERTIFY_DIR',
  'EXPECTED_DEVIATIONS',
  'BASELINE',
  'IMPLEMENTATION',
  'IMPLEMENTATION_DIGEST',
];

/**
 * The settings of a run, layer over layer: flags, then the environment (ASC_ names and the credential
 * aliases), then the --env-file, then the --config file. Nothing is read from a file that was not named.
 */
export function resolveSettings(layers: SettingLayers): Settings {
  const notices: string[] = [];
  const flagSetting = (option: OptionSpec): RawSetting | undefined => {
    const value = (layers.flags as Record<string, string | boolean | readonly string[] | undefined>)[keyOf(option.name)];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return undefined;
    return { value, from: `--${option.name}` };
  };
  const fromEnv = envLayer(layers.env, 'environment');
  const fileSetting = (name: string) => flagSetting(optionNamed(name) as OptionSpec) ?? fromEnv(optionNamed(name) as OptionSpec);
  const envFile = fileSetting('env-file');
  const fromEnvFile = envFile ? envLayer(readEnvFile(resolve(layers.cwd, String(envFile.value)), envFile.from), `env file ${envFile.value}`) : () => undefined;
  const configFile = fileSetting('config');
  const fromConfig = configFile ? configLayer(resolve(layers.cwd, String(configFile.value)), String(configFile.value), configFile.from) : () => undefined;

  const retired = RETIRED_NAMES.filter((name) => layers.env[name] && !layers.env[`${ENV_PREFIX}${name}`]);
  if (retired.length > 0) {
    notices.push(
      `the environment sets ${retired.join(', ')}, which this suite no longer reads: its variables are ${retired.map((n) => `${ENV_PREFIX}${n}`).join(', ')}`,
    );
  }
  if (!envFile && existsSync(resolve(layers.cwd, '.env')))
    notices.push('a .env file is in the working directory and was not read: pass --env-file .env to use it');

  return {
    get(name) {
      const option = optionNamed(name);
      if (!option) throw new Error(`no option ${name}`);
      return flagSetting(option) ?? fromEnv(option) ?? fromEnvFile(option) ?? fromConfig(option);
    },
    notices,
  };
}

function envLayer(env: Readonly<Record<string, string | undefined>>, where: string): (option: OptionSpec) => RawSetting | undefined {
  return (option) => {
    for (const name of [option.env, ...(option.aliases ?? [])]) {
      const text = name === undefined ? undefined : env[name];
      if (text === undefined || text === '') continue;
      const from = `${name} (${where})`;
      if (option.type === 'list') return { value: text.split(/\r?\n/).filter((line) => line.trim() !== ''), from };
      if (option.type === 'boolean') return { value: parseBool(text, from), from };
      return { value: text, from };
    }
    return undefined;
  };
}

function readEnvFile(path: string, from: string): Record<string, string> {
  if (!existsSync(path)) throw new HarnessError('ERR_CONFIG', `${from}: no such file: ${path}`);
  return parseDotenv(readFileSync(path));
}

/** A --config file: YAML or JSON, keys named as the flags, checked against configFileSchema(). */
function configLayer(path: string, shown: string, from: string): (option: OptionSpec) => RawSetting | undefined {
  if (!existsSync(path)) throw new HarnessError('ERR_CONFIG', `${from}: no such file: ${path}`);
  let data: unknown;
  try {
    data = parseYaml(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new HarnessError('ERR_CONFIG', `config file ${shown} is neither YAML nor JSON: ${(cause as Error).message.split('\n')[0]}`, { cause });
  }
  const values = checkConfigFile(data ?? {}, shown);
  return (option) => {
    const value = values[option.name];
    if (value === undefined) return undefined;
    const text = typeof value === 'number' ? String(value) : value;
    // A path in the file is the file's: it resolves against the file's folder, wherever the run starts.
    const located = typeof text === 'string' && PATH_VALUES.has(option.value ?? '') && !isAbsolute(text) ? resolve(dirname(path), text) : text;
    return { value: option.type === 'list' && typeof located === 'string' ? [located] : located, from: `${option.name} (config file ${shown})` };
  };
}

/** The value forms of options that name a file or folder (the option table's `value`). */
const PATH_VALUES: ReadonlySet<string> = new Set(['<dir>', '<file>', '<path>', '<pem>', '<report.json>']);

/** The JSON Schema of a --config file, derived from the option table. */
export function configFileSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const option of configFileOptions()) {
    const type =
      option.type === 'boolean'
        ? { type: 'boolean' }
        : option.type === 'list'
          ? { type: ['array', 'string'], items: { type: 'string' } }
          : { type: ['string', 'number'] };
    properties[option.name] = { ...type, description: option.help };
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false, properties };
}

function checkConfigFile(data: unknown, shown: string): Record<string, string | number | boolean | string[]> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new HarnessError('ERR_CONFIG', `config file ${shown} must be a mapping of option names to values`);
  }
  const allowed = configFileOptions().map((option) => option.name);
  for (const key of Object.keys(data)) {
    if (allowed.includes(key)) continue;
    const option = optionNamed(key);
    if (option?.secret)
      throw new HarnessError('ERR_CONFIG', `config file ${shown}: ${key} does not belong in a file kept with the code; set ${option.env} instead`);
    if (option) throw new HarnessError('ERR_CONFIG', `config file ${shown}: ${key} is a flag of one run only, not a setting to keep in a file`);
    const near = nearestNames(key, allowed);
    throw new HarnessError('ERR_CONFIG', `config file ${shown}: unknown setting "${key}"${near.length > 0 ? `; did you mean ${near.join(', ')}?` : ''}`);
  }
  const validate = new (ajvModules().Ajv2020)({ allErrors: false, strict: false }).compile(configFileSchema());
  if (!validate(data)) {
    const error = validate.errors?.[0];
    const where = error?.instancePath.replace(/^\//, '') || 'the file';
    throw new HarnessError('ERR_CONFIG', `config file ${shown}: ${where} ${error?.message ?? 'is not valid'}`);
  }
  return data as Record<string, string | number | boolean | string[]>;
}

export function parseBool(text: string, from: string): boolean {
  if (/^(1|true|yes|on)$/i.test(text)) return true;
  if (/^(0|false|no|off)$/i.test(text)) return false;
  throw new HarnessError('ERR_CONFIG', `${from} must be true or false; got "${text}"`);
}

/** Every environment name the suite reads, for a test harness that must clear them. */
export function environmentNames(): string[] {
  return (OPTIONS as readonly OptionSpec[]).flatMap((option) => [option.env, ...(option.aliases ?? [])]).filter((n): n is string => n !== undefined);
}
