/**
 * The main command's options, each stated once: its flag, environment name, type, default, help text,
 * whether a replay keeps it and the GitHub Action input that sets it. The parser (args.ts), the flag
 * types of the configuration (config.ts), the usage text, the replay line, the CLI reference page
 * (docs/reference/cli.md) and the test of action.yml are all derived from this table.
 */

import { COMMAND_OPTIONS } from './command-options.ts';
import type { OptionSpec, OptionType } from './option-spec.ts';
import { OUTPUT_OPTIONS } from './output-options.ts';
import { RUN_OPTIONS } from './run-options.ts';
import { TARGET_OPTIONS } from './target-options.ts';

export { ENV_PREFIX, type OptionGroup, type OptionSpec, type OptionType } from './option-spec.ts';

/** The table, its rows kept by area; the order is the usage's order within each group. */
export const OPTIONS = [...TARGET_OPTIONS, ...RUN_OPTIONS, ...OUTPUT_OPTIONS, ...COMMAND_OPTIONS] as const satisfies readonly OptionSpec[];

export type OptionName = (typeof OPTIONS)[number]['name'];

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type ValueOf<T extends OptionType> = T extends 'boolean' ? boolean : T extends 'list' ? readonly string[] : string;

/** The options as parsed (undefined = not given), keyed by the flag's name in camelCase. */
export type OptionValues = { -readonly [O in (typeof OPTIONS)[number] as Camel<O['name']>]?: ValueOf<O['type']> };

/** The key of an option in OptionValues: --exhaust-key → exhaustKey. */
export function keyOf(name: string): string {
  return name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

export function optionNamed(name: string): OptionSpec | undefined {
  return (OPTIONS as readonly OptionSpec[]).find((option) => option.name === name);
}

/** Every flag the parser accepts, with the --no- forms of negatable booleans. */
export function flagNames(): string[] {
  return (OPTIONS as readonly OptionSpec[]).flatMap((option) => (option.negatable ? [option.name, `no-${option.name}`] : [option.name]));
}

/** Options a --config file may set. */
export function configFileOptions(): OptionSpec[] {
  return (OPTIONS as readonly OptionSpec[]).filter((option) => (option.inConfigFile ?? !option.secret) && option.group !== 'Information');
}
