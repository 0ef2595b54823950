import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's own directory (src/certificate/ is two levels down). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What decides a verdict: the code, the suites, the interface and the catalog, and the test runner's config. */
const IDENTITY_DIRS = ['src', 'suites', 'spec'] as const;
const IDENTITY_FILES = ['vitest.config.ts'] as const;
/** Files that ship and can change a verdict; anything else (editor backups, generated output) is not the suite. */
const SHIPPED = /\.(ts|js|mjs|json|ya?ml)$/;

/**
 * The suite's identity: sha256 over its own files, each by its path relative to the package root (with
 * "/") and the sha256 of its bytes, in sorted order. Only content counts, never git metadata or file
 * times, so a git clone and an installed package of the same version agree, and a copy with one edited
 * check has another identity.
 */
export function suiteIdentity(root: string = PACKAGE_ROOT): string {
  const files = [...IDENTITY_DIRS.flatMap((dir) => listFiles(root, join(root, dir))), ...IDENTITY_FILES.map((f) => join(root, f))]
    .map((path) => relative(root, path).split(sep).join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const path of files) {
    const digest = createHash('sha256')
      .update(readFileSync(join(root, path)))
      .digest('hex');
    hash.update(`${path}\u0000${digest}\n`);
  }
  return hash.digest('hex');
}

function listFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(root, path));
    // A symlinked file counts by the content it points to (readFileSync follows it).
    else if ((entry.isFile() || entry.isSymbolicLink()) && SHIPPED.test(entry.name)) out.push(path);
  }
  return out;
}
