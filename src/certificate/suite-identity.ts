import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's own directory (src/certificate/ is two levels down). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What decides a verdict, in the form every copy of one commit holds (a clone, the Action's checkout, the
 * packed package): the TypeScript of src/ (dist/ is compiled from it, and the suites import it as it is),
 * the suites, the interface and the catalog, and the test runner's config. Only these extensions count:
 * a clone's launcher (src/bin/animal-store-conformance.js, which the package does not ship), a README,
 * editor backups or generated output are not the suite.
 */
const IDENTITY_DIRS: ReadonlyArray<{ dir: string; files: RegExp }> = [
  { dir: 'src', files: /\.ts$/ },
  { dir: 'suites', files: /\.(ts|json|ya?ml)$/ },
  { dir: 'spec', files: /\.(json|ya?ml)$/ },
];
const IDENTITY_FILES = ['vitest.config.ts'] as const;

/**
 * The suite's identity: sha256 over its own files, each by its path relative to the package root (with
 * "/") and the sha256 of its bytes, in sorted order. Only content counts, never git metadata or file
 * times, so a git clone and an installed package of the same version agree, and a copy with one edited
 * check has another identity.
 */
export function suiteIdentity(root: string = PACKAGE_ROOT): string {
  const files = [...IDENTITY_DIRS.flatMap(({ dir, files }) => listFiles(join(root, dir), files)), ...IDENTITY_FILES.map((f) => join(root, f))]
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

function listFiles(dir: string, files: RegExp): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path, files));
    // A symlinked file counts by the content it points to (readFileSync follows it).
    else if ((entry.isFile() || entry.isSymbolicLink()) && files.test(entry.name)) out.push(path);
  }
  return out;
}
