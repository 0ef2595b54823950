/** The shape of one row of the option table (options.ts). */

export type OptionType = 'string' | 'boolean' | 'list';

export type OptionGroup = 'Target' | 'Network' | 'Run' | 'Reports' | 'Certification' | 'Settings' | 'Testing the suite itself' | 'Information';

export interface OptionSpec {
  /** The flag without its dashes: --<name>. */
  readonly name: string;
  readonly short?: string;
  /** A list option may be given more than once; its environment value holds one item per line. */
  readonly type: OptionType;
  /** What the value looks like in the usage, e.g. <url>. */
  readonly value?: string;
  /** The environment variable, always ASC_-prefixed; absent: a flag only. */
  readonly env?: string;
  /** Further environment names read when the prefixed one is not set: the documented credential names. */
  readonly aliases?: readonly string[];
  readonly group: OptionGroup;
  readonly help: string;
  /** The default in words, as the usage and docs show it; absent: none. */
  readonly default?: string;
  /** A boolean whose --no-<name> form turns it off. */
  readonly negatable?: boolean;
  /** The replay line (run.command) repeats it when given. */
  readonly replay: boolean;
  /** The input of action.yml that sets it. */
  readonly action?: string;
  /** A secret: never in a --config file, never echoed in an error. */
  readonly secret?: boolean;
  /** May be set in a --config file (default: every option but secrets and the file options themselves). */
  readonly inConfigFile?: boolean;
}

export const ENV_PREFIX = 'ASC_';
