import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docsPages } from '../support/markdown.ts';

/**
 * The pages name the project's files in prose (`src/text/json.ts`, `suites/rate-limit.test.ts`): a file
 * moved or renamed must take its mentions with it, or a reader follows a path to nothing. Links are
 * checked by docs.test.ts; this reads the paths written as text, in code spans too.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A path into one of the project's folders, as the pages write it: a folder, then name characters. */
const NAMED_PATH = /\b(?:src|suites|test|scripts|bench|mutation|spec|action)\/[A-Za-z0-9_./-]*[A-Za-z0-9_]/g;

/** Each path a page's text names that does not exist under root, as `page:line path`. */
function missingPaths(root: string, page: string, text: string): string[] {
  const missing: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [path] of line.matchAll(NAMED_PATH)) {
      // A glob or a pattern names no single file.
      if (/[*{]/.test(line.slice(line.indexOf(path), line.indexOf(path) + path.length + 1))) continue;
      if (!existsSync(join(root, path))) missing.push(`${page}:${index + 1} ${path}`);
    }
  });
  return missing;
}

describe('the paths the pages name', () => {
  it('exist in the repository', () => {
    const pages = ['README.md', 'CONTRIBUTING.md', 'suites/README.md', ...docsPages(ROOT)];
    expect(pages.flatMap((page) => missingPaths(ROOT, page, readFileSync(join(ROOT, page), 'utf8')))).toEqual([]);
  });

  it('reports a moved file and passes over globs', () => {
    const text = 'Read `src/text/json.ts`.\nThe old `src/json.ts` and src/config.ts.\nEvery `suites/*.test.ts`.';
    expect(missingPaths(ROOT, 'page.md', text)).toEqual(['page.md:2 src/json.ts', 'page.md:2 src/config.ts']);
  });
});
