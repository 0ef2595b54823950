import type { OptionSpec } from './option-spec.ts';

/** The command itself: where its settings come from, the faults and variants that test the suite, help and version. */
export const COMMAND_OPTIONS = [
  // Settings
  {
    name: 'config',
    type: 'string',
    value: '<file>',
    env: 'ASC_CONFIG',
    group: 'Settings',
    help: 'settings kept in the repository (YAML or JSON, keys named as the flags); flags and ASC_ variables win over it; its paths are relative to its own folder',
    replay: false,
    inConfigFile: false,
  },
  {
    name: 'env-file',
    type: 'string',
    value: '<file>',
    env: 'ASC_ENV_FILE',
    group: 'Settings',
    help: 'read ASC_ variables and the key from this dotenv file; no .env is read without it',
    replay: false,
    inConfigFile: false,
  },
  // Testing the suite itself
  {
    name: 'reference-faults',
    type: 'string',
    value: '<names>',
    group: 'Testing the suite itself',
    help: 'embedded reference only: inject named faults and watch the suite fail (help faults lists them)',
    replay: true,
  },
  {
    name: 'reference-variants',
    type: 'string',
    value: '<names>',
    group: 'Testing the suite itself',
    help: 'embedded reference only: take liberties the interface allows (help variants lists them)',
    replay: true,
  },
  // Information
  {
    name: 'help',
    short: 'h',
    type: 'boolean',
    group: 'Information',
    help: 'this text; help <command> for compare, verify, keygen, matrix, reference, faults, variants',
    replay: false,
    inConfigFile: false,
  },
  { name: 'version', short: 'V', type: 'boolean', group: 'Information', help: "the suite's version", replay: false, inConfigFile: false },
] as const satisfies readonly OptionSpec[];
