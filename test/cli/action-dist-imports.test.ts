import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The Action's scripts load modules of the compiled dist/ by path (`new URL('cli/gate-reason.js', dist)`):
 * a source file moved or renamed leaves such a path pointing at nothing, and only a whole simulated
 * Action run would say so. Each path must name a source file of src/ that compiles to it.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The dist/ modules a script names, as `new URL('<path>.js', dist)`. */
function distModules(script: string): string[] {
  return [...script.matchAll(/new URL\('([^']+\.js)', dist\)/g)].map((match) => match[1] as string);
}

/** The dist/ paths a script names whose source is not in src/. */
function missingSources(root: string, script: string): string[] {
  return distModules(script).filter((path) => !existsSync(join(root, 'src', path.replace(/\.js$/, '.ts'))));
}

describe("the Action's scripts", () => {
  it('load only dist/ modules whose source exists', () => {
    const scripts = readdirSync(join(ROOT, 'action')).filter((name) => name.endsWith('.mjs'));
    const named = scripts.flatMap((name) => distModules(readFileSync(join(ROOT, 'action', name), 'utf8')));
    expect(named.length).toBeGreaterThan(0);
    const missing = scripts.flatMap((name) => missingSources(ROOT, readFileSync(join(ROOT, 'action', name), 'utf8')).map((path) => `${name}: ${path}`));
    expect(missing).toEqual([]);
  });

  it('find a path whose source moved', () => {
    const script = "const a = await import(new URL('cli/gate-reason.js', dist).href);\nconst b = await import(new URL('console-text.js', dist).href);";
    expect(missingSources(ROOT, script)).toEqual(['console-text.js']);
  });
});
