import { ENV_PREFIX, OPTIONS, type OptionGroup, type OptionSpec } from '../config/option-table.ts';
import { describeProfiles } from '../config/profiles.ts';

const COMMANDS = `Usage: animal-store-conformance [options]
       animal-store-conformance compare <before.json> <after.json> [--format text|markdown|json]
       animal-store-conformance verify <bundle-dir> [--public-key <pem>]
       animal-store-conformance rejudge <bundle-or-report-dir> [--format text|json]    the verdict again, from the exchange log
       animal-store-conformance keygen <dir>
       animal-store-conformance matrix <bundle-or-report>… --out <dir> [--public-key <pem|dir>]… [--allow-unsigned] [--include-unverified]
       animal-store-conformance reference [--port N] [--host H]    the reference server, standalone
       animal-store-conformance help [compare|verify|rejudge|keygen|matrix|reference|faults|variants]
       npm run conformance -- [options]

Runs the Animal Store conformance suite against a target and writes reports/conformance.{html,json},
reports/junit.xml and the exchange log reports/exchanges.har. With no --target, an embedded reference
server is started and tested.`;

const VERDICTS = `Where settings come from: flags, then ${ENV_PREFIX} variables (and API_KEY, TARGET_BASE_URL,
EXHAUST_API_KEY), then --env-file, then --config. No .env is read unless --env-file names it.
Verdicts and exit codes:
  CONFORMANT      0  every MUST requirement in scope was tested and passed (SHOULDs too with --strict)
  NOT CONFORMANT  1  a MUST requirement failed, or a SHOULD with --strict (a failure found always wins)
  PARTIAL         0  nothing failed, but some MUST in scope was not tested (profile, budget, --only,
                     --read-only, --no-exhaust, a precondition…); 1 with --require-complete
  INCOMPLETE      2  the run could not be completed: bad configuration, target unreachable, key
                     refused, not an Animal Store API, interrupted, or a harness error
In scope: every requirement of the catalog except those the interface does not show.`;

const GROUPS: readonly OptionGroup[] = ['Target', 'Network', 'Run', 'Reports', 'Certification', 'Settings', 'Testing the suite itself', 'Information'];

/** How an option is written in the usage: `--exhaust, --no-exhaust`, `--quiet, -q`, with its value. */
export function optionSyntax(option: OptionSpec): string {
  const forms = [`--${option.name}`, ...(option.negatable ? [`--no-${option.name}`] : []), ...(option.short ? [`-${option.short}`] : [])];
  return `${forms.join(', ')}${option.value ? ` ${option.value}` : ''}`;
}

function optionHelp(option: OptionSpec): string {
  const extra = option.name === 'profile' ? `: ${describeProfiles()}` : '';
  return `${option.help}${extra}`;
}

function envOf(option: OptionSpec): string {
  return [option.env, ...(option.aliases ?? [])].filter(Boolean).join(', ');
}

/** Words wrapped to `width` columns, each line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** The main command's --help, from the option table. */
export function usageText(): string {
  const column = 28;
  const sections = GROUPS.map((group) => {
    const rows = (OPTIONS as readonly OptionSpec[])
      .filter((option) => option.group === group)
      .map((option) => {
        const syntax = `  ${optionSyntax(option)}`;
        const details = [optionHelp(option), option.default ? `(default ${option.default})` : '', envOf(option) ? `[${envOf(option)}]` : '']
          .filter(Boolean)
          .join(' ');
        const head = syntax.length + 2 > column ? `${syntax}\n${' '.repeat(column)}` : syntax.padEnd(column);
        return `${head}${wrap(details, 100 - column, column)}`;
      });
    return `${group}\n${rows.join('\n')}`;
  });
  return [COMMANDS, ...sections, VERDICTS].join('\n\n');
}

/** docs/reference/cli.md: the reference page of every option, from the same table (test/config/options.test.ts keeps it current). */
export function cliReferenceMarkdown(): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const out = [
    '# Command-line reference',
    '',
    'Generated from the option table (`src/config/option-table.ts`); `test/config/options.test.ts` fails when this page is out of date.',
    'Regenerate it with `npm run docs:cli`.',
    '',
    '```',
    COMMANDS,
    '```',
    '',
    `Settings come from flags, then the environment (\`${ENV_PREFIX}\` names, and the credential names \`API_KEY\`, \`TARGET_BASE_URL\`,`,
    '`EXHAUST_API_KEY`, `SIGN_KEY_FILE`), then the dotenv file named by `--env-file`, then the YAML or JSON file named by `--config`',
    '(keys named as the flags; keys and other secrets are refused there). No `.env` is read unless `--env-file` names it. A value',
    'that is wrong is reported with where it came from (`ASC_PROFILE (environment) must be one of …`).',
  ];
  for (const group of GROUPS) {
    out.push('', `## ${group}`, '', '| option | environment | default | replay keeps it | Action input | what it does |', '|---|---|---|---|---|---|');
    for (const option of (OPTIONS as readonly OptionSpec[]).filter((o) => o.group === group)) {
      out.push(
        `| \`${escape(optionSyntax(option))}\` | ${envOf(option) ? `\`${envOf(option).replace(/, /g, '`, `')}\`` : ''} | ${escape(option.default ?? '')} | ${option.replay ? 'yes' : ''} | ${option.action ? `\`${option.action}\`` : ''} | ${escape(optionHelp(option))} |`,
      );
    }
  }
  out.push('', '## Verdicts and exit codes', '', '```', VERDICTS, '```', '');
  return out.join('\n');
}
