import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Two house rules on the files of src/ (CONTRIBUTING.md, "Code conventions"): a file is named after what
 * it holds, so no two files share a name; and a file stays small, at most MAX_LINES lines.
 */

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const MAX_LINES = 300;

/**
 * Names that may repeat, each with why. `index.ts` is the entry-point convention of a folder: the
 * package.json exports name src/index.ts and src/harness/index.ts, and every folder's public face is its
 * index.ts.
 */
const NAMES_THAT_REPEAT: Readonly<Record<string, string>> = {
  'index.ts': "a folder's entry point; the package's exports are src/index.ts and src/harness/index.ts",
};

/**
 * Files allowed past MAX_LINES, by path from src/, each with why: only tables (one row per fact, read
 * as a list), never code. None is that long today; a table that grows past the limit is named here.
 */
const LONG_TABLES: Readonly<Record<string, string>> = {};

/** Every file below `dir`, as paths relative to it; a node_modules folder (a cache) is not source. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules') return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesBelow(path).map((file) => join(name, file)) : [name];
  });
}

/** The file names that appear more than once among `paths`, each with its paths. */
function repeatedNames(paths: readonly string[], allowed: Readonly<Record<string, string>> = {}): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const path of paths) byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
  return Object.fromEntries([...byName].filter(([name, where]) => where.length > 1 && !(name in allowed)));
}

/** The files of `lineCounts` over `max` lines that `allowed` does not name. */
function overLong(lineCounts: Readonly<Record<string, number>>, max: number, allowed: Readonly<Record<string, string>> = {}): string[] {
  return Object.entries(lineCounts)
    .filter(([path, lines]) => lines > max && !(path in allowed))
    .map(([path, lines]) => `${path}: ${lines} lines`);
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

describe('the files of src/', () => {
  const files = filesBelow(SRC).map((file) => relative(SRC, join(SRC, file)));

  it('share no name, but for a folder entry point (index.ts)', () => {
    expect(repeatedNames(files, NAMES_THAT_REPEAT)).toEqual({});
  });

  it(`are at most ${MAX_LINES} lines long, but for the tables named with a reason`, () => {
    const counts = Object.fromEntries(files.map((file) => [file, lineCount(readFileSync(join(SRC, file), 'utf8'))]));
    expect(overLong(counts, MAX_LINES, LONG_TABLES)).toEqual([]);
  });

  it('exempt only names and tables that exist, and only tables that need it', () => {
    for (const path of Object.keys(LONG_TABLES)) {
      expect(files, path).toContain(path);
      expect(lineCount(readFileSync(join(SRC, path), 'utf8')), path).toBeGreaterThan(MAX_LINES);
    }
    for (const name of Object.keys(NAMES_THAT_REPEAT)) expect(files.map((file) => basename(file)).filter((n) => n === name).length).toBeGreaterThan(1);
  });

  it('would catch a repeated name or a long file (the rules themselves)', () => {
    expect(repeatedNames(['a/types.ts', 'b/types.ts', 'a/index.ts', 'b/index.ts'], NAMES_THAT_REPEAT)).toEqual({ 'types.ts': ['a/types.ts', 'b/types.ts'] });
    expect(overLong({ 'a.ts': 301, 'b.ts': 300 }, MAX_LINES)).toEqual(['a.ts: 301 lines']);
    expect(overLong({ 'a.ts': 301 }, MAX_LINES, { 'a.ts': 'a table' })).toEqual([]);
  });
});
