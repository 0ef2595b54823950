import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Catalog } from '../catalog/catalog.ts';
import { isSelected } from '../config/requirement-selection.ts';

const REQUIREMENT_LITERAL = /['"`]([A-Z][A-Z0-9]*-\d+)['"`]/g;
const RELATIVE_IMPORT = /\bfrom\s+['"](\.[^'"]+)['"]/g;

/**
 * The suite files a `--only` selection needs, relative to `root`, or undefined for all of them. A file
 * is needed when it, or a support module it imports from the suites folder, names a selected
 * requirement as a string literal: a superset of the files holding the selected tests, so a selection
 * never loses a test and a run with `--only` no longer loads and collects every file. When a selected
 * requirement appears in no file, every file is loaded (its verdict then says no test ran).
 */
export function suiteFilesFor(only: readonly string[], catalog: Catalog, root: string, suitesDir = 'suites'): string[] | undefined {
  if (only.length === 0) return undefined;
  const selected = new Set(catalog.requirements.filter((r) => r.coverage !== 'not-covered' && isSelected(only, r)).map((r) => r.id));
  if (selected.size === 0) return undefined;
  const dir = resolve(root, suitesDir);
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(dir, name));
  const named = new Map(files.map((file) => [file, requirementsNamedBy(file, dir)]));
  const found = new Set([...named.values()].flatMap((ids) => [...ids]));
  if ([...selected].some((id) => !found.has(id))) return undefined;
  return files.filter((file) => [...(named.get(file) ?? [])].some((id) => selected.has(id))).map((file) => relative(root, file));
}

/**
 * The files a run with this `--only` runs (every suite file without one), each with the catalog's
 * requirements it names: what the reporter checks the run against, so a file that never started leaves
 * its requirements untested instead of letting the tests of another file pass them.
 */
export function suiteInventory(
  only: readonly string[],
  catalog: Catalog,
  root: string,
  suitesDir = 'suites',
): Array<{ file: string; requirementIds: string[] }> {
  const dir = resolve(root, suitesDir);
  if (!existsSync(dir)) return [];
  const all = readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => relative(root, join(dir, name)));
  const files = suiteFilesFor(only, catalog, root, suitesDir) ?? all;
  return files.map((file) => ({ file, requirementIds: [...requirementsNamedBy(resolve(root, file), dir)].filter((id) => catalog.has(id)).sort() }));
}

/** Requirement ids a file names, with those of the support modules it imports from inside `dir`. */
function requirementsNamedBy(file: string, dir: string, seen = new Set<string>()): Set<string> {
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const ids = new Set([...text.matchAll(REQUIREMENT_LITERAL)].map((m) => m[1] as string));
  for (const match of text.matchAll(RELATIVE_IMPORT)) {
    const target = resolve(dirname(file), match[1] as string);
    if (!target.startsWith(dir) || seen.has(target) || !existsSync(target)) continue;
    for (const id of requirementsNamedBy(target, dir, seen)) ids.add(id);
  }
  return ids;
}
