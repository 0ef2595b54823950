import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsPages, headingAnchors, headingSlug, npmScriptsNamed, relativeLinks } from '../support/markdown.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The README is a front page that links out; everything else lives in docs/. */
const README_MAX_BYTES = 10_240;

/** The pages a reader finds from the README: the README, the contributors' pages, the results and every page of docs/. */
function pages(): string[] {
  return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'suites/README.md', 'bench/results.md', ...docsPages(ROOT)];
}

const read = (page: string) => readFileSync(join(ROOT, page), 'utf8');
/** A page without its fenced code blocks (examples, such as a baseline's expiry date), lines kept. */
const proseOf = (markdown: string) => markdown.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ''));

/** Every link of a page that does not reach an existing file, or a heading of it when the link names one. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const link of relativeLinks(read(page))) {
    const target = link.path === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(link.path)));
    const where = `${page}:${link.line} → ${link.path}${link.anchor === undefined ? '' : `#${link.anchor}`}`;
    if (!existsSync(join(ROOT, target))) broken.push(`${where} (no such file)`);
    else if (link.anchor !== undefined && target.endsWith('.md') && statSync(join(ROOT, target)).isFile()) {
      if (!headingAnchors(read(target)).has(link.anchor)) broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

describe('the Markdown reader', () => {
  it('finds relative links outside code, with their anchors, and leaves web addresses out', () => {
    const page = [
      'See [verdicts](docs/verdicts.md#exit-codes) and [home](https://example.com).',
      '`[not](a-link.md)`',
      '```',
      '[nor](this.md)',
      '```',
      '[here](#top)',
    ].join('\n');
    expect(relativeLinks(page)).toEqual([
      { path: 'docs/verdicts.md', anchor: 'exit-codes', line: 1 },
      { path: '', anchor: 'top', line: 6 },
    ]);
  });

  it('names headings as GitHub does, repeated ones numbered, and ignores # lines in code', () => {
    expect(headingSlug('Testing your server')).toBe('testing-your-server');
    expect(headingSlug('`--plan` and the 429: why?')).toBe('--plan-and-the-429-why');
    expect([...headingAnchors('# Title\n## Notes\n```sh\n# a comment\n```\n### Notes')]).toEqual(['title', 'notes', 'notes-1']);
  });

  it('finds the npm scripts a page names', () => {
    expect(npmScriptsNamed('`npm test`, then npm run --silent conformance and `npm run bench -- --only abuse`').sort()).toEqual([
      'bench',
      'conformance',
      'test',
    ]);
    expect(npmScriptsNamed('npm run test:verdicts (npm run lint: all)').sort()).toEqual(['lint', 'test:verdicts']);
  });
});

describe('the documentation', () => {
  it(`keeps the README at most ${README_MAX_BYTES} bytes`, () => {
    expect(Buffer.byteLength(read('README.md'))).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('links only to files and headings that exist', () => {
    for (const page of ['README.md', 'CONTRIBUTING.md', 'docs/architecture.md']) expect(pages()).toContain(page);
    expect(pages().flatMap(brokenLinks)).toEqual([]);
  });

  it('indexes every page of docs/ by purpose in docs/README.md', () => {
    const indexed = new Set(relativeLinks(read('docs/README.md')).map((link) => relative(ROOT, join(ROOT, 'docs', link.path))));
    const missing = docsPages(ROOT).filter((page) => page !== 'docs/README.md' && !indexed.has(page));
    expect(missing).toEqual([]);
    for (const heading of ['Tutorial', 'How-to guides', 'Reference', 'Explanation'])
      expect(read('docs/README.md')).toMatch(new RegExp(`^## ${heading}\\b`, 'm'));
  });

  it('keeps dated measurements out of docs/, but for the current figures of the performance page', () => {
    const dated = docsPages(ROOT)
      .filter((page) => page !== 'docs/performance.md')
      .flatMap((page) =>
        proseOf(read(page))
          .split('\n')
          .map((line, index) => ({ where: `${page}:${index + 1}`, line }))
          .filter(({ line }) => /\b20\d\d-[01]\d-[0-3]\d\b/.test(line))
          .map(({ where, line }) => `${where}: ${line.trim()}`),
      );
    expect(dated, 'dated measurements belong in bench/results.md').toEqual([]);
  });

  it('names only npm scripts that package.json defines', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const unknown = pages().flatMap((page) =>
      npmScriptsNamed(read(page))
        .filter((name) => !scripts.includes(name))
        .map((name) => `${page}: npm run ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('keeps the two quick-start commands of a fresh clone in the README', () => {
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npm run conformance');
    expect(readme).toMatch(/^npm test\b/m);
  });
});
