import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPLAY_FORMS, USAGE } from '../../src/cli/args.ts';
import { cliReferenceMarkdown, optionSyntax } from '../../src/cli/usage.ts';
import { CONFIG_DEFAULTS } from '../../src/config/load-config.ts';
import { ENV_PREFIX, OPTIONS, type OptionSpec } from '../../src/config/option-table.ts';

const ROOT = new URL('../../', import.meta.url);
const table = OPTIONS as readonly OptionSpec[];

describe('the option table is the one source', () => {
  it('docs/reference/cli.md is the page the table makes (npm run docs:cli)', () => {
    expect(readFileSync(new URL('docs/reference/cli.md', ROOT), 'utf8')).toBe(cliReferenceMarkdown());
  });

  it('every option is in --help, with its environment names', () => {
    for (const option of table) {
      expect(USAGE).toContain(optionSyntax(option));
      for (const name of [option.env, ...(option.aliases ?? [])].filter(Boolean)) expect(USAGE).toContain(name);
    }
  });

  it('every environment name carries the prefix, but for the documented credential aliases', () => {
    const aliases = table.flatMap((option) => option.aliases ?? []);
    expect(aliases.sort()).toEqual(['API_KEY', 'EXHAUST_API_KEY', 'SIGN_KEY_FILE', 'TARGET_BASE_URL']);
    for (const option of table) if (option.env) expect(option.env).toBe(`${ENV_PREFIX}${option.name.toUpperCase().replace(/-/g, '_')}`);
  });

  it('the replay line has a form for every option it keeps, and none for the others', () => {
    const kept = table.filter((option) => option.replay).map((option) => option.name);
    expect(Object.keys(REPLAY_FORMS).sort()).toEqual(kept.sort());
  });

  it("the table's shown defaults are the configuration's", () => {
    const shown = (name: string) => table.find((option) => option.name === name)?.default;
    expect(shown('report-dir')).toBe(CONFIG_DEFAULTS.reportDir);
    expect(shown('timeout')).toBe(String(CONFIG_DEFAULTS.timeoutMs));
    expect(shown('exhaust')).toBe(String(CONFIG_DEFAULTS.exhaust));
    expect(shown('profile')).toContain(CONFIG_DEFAULTS.embeddedProfile);
    expect(shown('profile')).toContain(CONFIG_DEFAULTS.remoteProfile);
  });

  it("action.yml's inputs are the table's Action inputs, plus the Action's own", () => {
    const action = parse(readFileSync(new URL('action.yml', ROOT), 'utf8')) as { inputs: Record<string, unknown> };
    const fromTable = table.filter((option) => option.action).map((option) => option.action as string);
    // no-proxy sets NO_PROXY for the runner's proxy variables, which the CLI reads as curl does: no flag of its own.
    const ownInputs = ['artifact-name', 'node-version', 'no-proxy'];
    expect(
      Object.keys(action.inputs)
        .filter((input) => !ownInputs.includes(input))
        .sort(),
    ).toEqual([...fromTable].sort());
    // Each input reaches the CLI: action/run.sh turns INPUT_<NAME> into the option's flag.
    const script = readFileSync(new URL('action/run.sh', ROOT), 'utf8');
    for (const option of table.filter((o) => o.action && !o.secret)) {
      expect(script, option.name).toContain(`INPUT_${(option.action as string).toUpperCase().replace(/-/g, '_')}`);
      expect(script, option.name).toContain(`--${option.name}`);
    }
  });
});
