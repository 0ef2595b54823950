import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { docsPages } from '../support/markdown.ts';
import { OPTIONS, type OptionSpec } from '../../src/config/option-table.ts';
import { PROFILE_RULES } from '../../src/config/profiles.ts';

/**
 * Claims the README and docs/ make that the code can check: the sub-commands the README lists are the
 * CLI's, every flag they name in prose exists, the quick and standard ceilings they state are the
 * profiles', and every definition of NOT CONFORMANT says that --strict fails on a SHOULD too. A claim that
 * drifts from the code fails here, in `npm test`, not in a user's terminal.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (page: string) => readFileSync(`${ROOT}${page}`, 'utf8');
const PAGES = ['README.md', 'CONTRIBUTING.md', ...docsPages(ROOT)];
/** The one page that defines the verdicts; every other page links to it. */
const VERDICTS_PAGE = 'docs/reference/verdicts.md';

/** What `--help` prints, and each sub-command's own help: the flags and sub-commands the CLI knows. */
async function helpText(): Promise<string> {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  await main(['--help'], log);
  // The reference's help is printed by the standalone server itself, to the console.
  const printed = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => log(args.join(' ')));
  try {
    for (const command of subCommandsOfUsage(lines.join('\n'))) await main(['help', command], log);
  } finally {
    printed.mockRestore();
  }
  return lines.join('\n');
}

/** The sub-commands the usage's synopsis lines start, `help` left out. */
function subCommandsOfUsage(usage: string): string[] {
  const names = [...usage.matchAll(/^\s*(?:Usage: )?animal-store-conformance ([a-z]+)\b/gm)].map((m) => m[1]!);
  return [...new Set(names)].filter((name) => name !== 'help');
}

describe('what the README and docs claim', () => {
  it('lists exactly the sub-commands the CLI has', async () => {
    const usage = await helpText();
    const sentence = /The sub-commands are (.+?);/.exec(read('README.md'))?.[1];
    expect(sentence, 'README names its sub-commands in one sentence').toBeDefined();
    const listed = [...sentence!.matchAll(/`([a-z]+)`/g)].map((m) => m[1]!).sort();
    expect(listed).toEqual(subCommandsOfUsage(usage).sort());
  });

  it('names in prose only flags the CLI or one of its sub-commands takes', async () => {
    const known = new Set([...OPTIONS.map((o) => o.name), ...[...(await helpText()).matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!)]);
    for (const option of OPTIONS as readonly OptionSpec[]) if (option.negatable) known.add(`no-${option.name}`);
    const unknown: string[] = [];
    for (const page of [
      'README.md',
      'docs/reference/cli.md',
      'docs/how-to/ci.md',
      'docs/reference/verdicts.md',
      'docs/how-to/real-targets.md',
      'docs/how-to/certification.md',
    ]) {
      // Inline code outside fenced blocks: the fenced ones are commands, which commands.test.ts runs.
      const prose = read(page).replace(/```[\s\S]*?```/g, '');
      for (const match of prose.matchAll(/`--([a-z][a-z0-9-]*)/g)) if (!known.has(match[1]!)) unknown.push(`${page}: --${match[1]}`);
    }
    expect(unknown).toEqual([]);
  });

  it('states the ceilings of the quick and standard profiles as the profiles have them', () => {
    const readme = read('README.md');
    expect(readme).toContain(`quick at most ${PROFILE_RULES.quick.budget}`);
    expect(readme).toContain(`standard at most ${PROFILE_RULES.standard.budget}`);
    expect(readme).not.toMatch(/quick fits in one Free-plan minute/);
  });

  it('defines NOT CONFORMANT once in the docs, with the SHOULD that --strict makes fail, and links to it', async () => {
    const lines: string[] = [];
    await main(['--help'], (line) => lines.push(line));
    const definitions = PAGES.flatMap((page) =>
      read(page)
        .split('\n')
        .filter((line) => /NOT CONFORMANT\*{0,2}\s*\|\s*1\s*\|/.test(line))
        .map((line) => `${page}: ${line}`),
    );
    expect(definitions.map((line) => line.split(':')[0])).toEqual([VERDICTS_PAGE]);
    expect(definitions[0]).toMatch(/--strict/);
    expect(
      lines
        .join('\n')
        .split('\n')
        .filter((line) => /^\s*NOT CONFORMANT\s+1\s/.test(line)),
    ).toEqual([expect.stringMatching(/--strict/)]);
    expect(read('README.md')).toContain(`](${VERDICTS_PAGE}#the-runs-verdict-and-exit-code)`);
  });

  it('starts only sub-commands the CLI has, on every page', async () => {
    const commands = new Set(subCommandsOfUsage(await helpText()));
    const named = PAGES.flatMap((page) => [...read(page).matchAll(/(?:npx )?animal-store-conformance ([a-z]+)\b/g)].map((m) => ({ page, name: m[1]! })));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter(({ name }) => name !== 'help' && !commands.has(name))).toEqual([]);
  });
});
