import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/cli/args.ts';
import { main } from '../../src/cli/main.ts';
import { docsPages } from '../support/markdown.ts';
import { loadConfig } from '../../src/config/load-config.ts';

/**
 * Every command line the README and docs/ show runs as written: each invocation of the CLI in a code
 * block is parsed by the CLI's own parser and configuration (an unknown flag, a misspelt value, a
 * sub-command that does not exist fail here), and the local information commands (help) run. Synopsis
 * lines (`<dir>`, `[--flag]`, `…`) describe a form rather than give a command and are left out.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = ['README.md', 'CONTRIBUTING.md', ...docsPages(ROOT)];
/** The ways the pages start the CLI; what follows is its argv. */
const INVOCATIONS = [/^npx animal-store-conformance\b/, /^animal-store-conformance\b/, /^npm run (?:--silent )?conformance(?: --(?= |$))?/];
const SUB_COMMANDS = new Set(['compare', 'verify', 'rejudge', 'keygen', 'matrix', 'reference', 'help']);
/** The values a page's shell variables stand for. */
const SHELL_VALUES: Readonly<Record<string, string>> = { API_KEY: 'doc-example-key-0001' };

interface DocCommand {
  page: string;
  line: string;
  argv: string[];
}

/** The lines of a page's fenced code blocks, continuations joined and `# comments` dropped. */
function codeLines(markdown: string): string[] {
  const lines: string[] = [];
  let inFence = false;
  let pending = '';
  for (const raw of markdown.split('\n')) {
    if (/^\s*```/.test(raw)) {
      inFence = !inFence;
      continue;
    }
    if (!inFence) continue;
    const line = pending + raw.trim().replace(/^\$ /, '');
    if (line.endsWith('\\')) {
      pending = `${line.slice(0, -1).trim()} `;
      continue;
    }
    pending = '';
    lines.push(line.replace(/\s+#\s.*$/, '').trim());
  }
  return lines;
}

/** Splits a command line as sh does for the forms the pages use: quotes, and $NAME from SHELL_VALUES. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern)) {
    const [, double, single, bare] = match;
    const word = single ?? (double ?? bare ?? '').replace(/\$([A-Z_]+)/g, (_, name: string) => SHELL_VALUES[name] ?? `$${name}`);
    words.push(word);
  }
  return words;
}

function isSynopsis(line: string): boolean {
  return /[<[…]|\|/.test(line.replace(/"[^"]*"|'[^']*'/g, ''));
}

function docCommands(): { runnable: DocCommand[]; synopses: number } {
  const runnable: DocCommand[] = [];
  let synopses = 0;
  for (const page of PAGES) {
    for (const line of codeLines(readFileSync(`${ROOT}${page}`, 'utf8'))) {
      const invocation = INVOCATIONS.map((pattern) => pattern.exec(line)).find((match) => match !== null);
      if (!invocation) continue;
      if (isSynopsis(line)) {
        synopses += 1;
        continue;
      }
      runnable.push({ page, line, argv: shellWords(line.slice(invocation[0].length)) });
    }
  }
  return { runnable, synopses };
}

describe('docs: the command lines the pages show', () => {
  const { runnable, synopses } = docCommands();

  it('finds the pages’ commands, and tells a synopsis from a command', () => {
    expect(runnable.length).toBeGreaterThanOrEqual(10);
    expect(synopses).toBeGreaterThan(0);
    expect(shellWords(`--api-key "$API_KEY" --only 'auth,RATE-001' x`)).toEqual(['--api-key', 'doc-example-key-0001', '--only', 'auth,RATE-001', 'x']);
    expect(codeLines('```sh\nnpm run conformance -- --a \\\n  --b   # why\n```\nnpx outside')).toEqual(['npm run conformance -- --a --b']);
    expect(isSynopsis('animal-store-conformance keygen <dir>')).toBe(true);
    expect(isSynopsis('npm run conformance -- --only auth')).toBe(false);
  });

  // A run starts with a flag (or nothing); any other first word must be a sub-command.
  const runs = runnable.filter((c) => c.argv[0] === undefined || c.argv[0].startsWith('-'));
  it.each(runs.map((c) => [`${c.page}: ${c.line}`, c] as const))('%s parses and configures', (_, command) => {
    const args = parseCliArgs(command.argv);
    if (args.help) return;
    expect(() => loadConfig({ flags: args.flags, env: {}, cwd: ROOT, merging: args.mergeReports !== undefined })).not.toThrow();
  });

  const subCommands = runnable.filter((c) => !runs.includes(c));
  it('names only sub-commands the CLI has', () => {
    expect(subCommands.length).toBeGreaterThan(0);
    for (const command of subCommands) expect(SUB_COMMANDS, command.line).toContain(command.argv[0]);
  });

  const helps = subCommands.filter((c) => c.argv[0] === 'help');
  it.each(helps.map((c) => [`${c.page}: ${c.line}`, c] as const))('%s runs and prints', async (_, command) => {
    const out: string[] = [];
    expect(await main(command.argv, (line) => out.push(line))).toBe(0);
    expect(out.join('\n').length).toBeGreaterThan(100);
  });
});
