import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Text derived from other text by a pure, costly step (a YAML document read into JSON, a JSON Schema
 * compiled into code), kept on disk under the digest of everything it was derived from: the inputs, the
 * step's name and the versions of the packages that do it. A changed input is a new digest, never a
 * stale entry. Every run reads the same catalog, interface description and schemas, so from the second
 * run on it reads the result instead of deriving it again.
 *
 * The entries live beside the package's dependencies (node_modules/.cache), where vitest keeps its own
 * cache. Where nothing can be written there (a read-only install), every run derives afresh: the cache
 * only ever saves time, it never changes a result. An entry is written whole to a file of its own and
 * then renamed, so two runs at once never read half of one.
 */
export interface DerivedCache {
  /** The derived text for these inputs: read from the cache, or derived (and kept) when it is not there. */
  text(step: string, inputs: readonly string[], derive: () => string | undefined): string | undefined;
}

/** The package's root: this module sits two levels below it (src/text/, dist/text/). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `ASC_DERIVED_CACHE=off`: no entry is read or written. The entries are files the suite identity does not
 * cover (anyone who can write node_modules can edit one: the catalog read with CON-003 as ADVISORY), so
 * whatever decides or checks a certificate (--certify, a merge, verify, rejudge, matrix) derives afresh.
 */
export const DERIVED_CACHE_ENV = 'ASC_DERIVED_CACHE';

/**
 * This process, and the workers it starts, derive everything afresh until the returned function restores
 * the setting: what they decide is a function of the suite's own files alone. Set in the environment (not
 * in a module) so the test workers a run forks inherit it; restored so that a caller in the same process
 * (a test, a library user) does not inherit it.
 */
export function bypassDerivedCache(env: NodeJS.ProcessEnv = process.env): () => void {
  const before = env[DERIVED_CACHE_ENV];
  env[DERIVED_CACHE_ENV] = 'off';
  return () => {
    if (before === undefined) delete env[DERIVED_CACHE_ENV];
    else env[DERIVED_CACHE_ENV] = before;
  };
}

/** A cache under `root`'s node_modules (by default this package's); `false`, or ASC_DERIVED_CACHE=off: none, every step derived afresh. */
export function derivedCache(root: string | false = PACKAGE_ROOT, env: Readonly<Record<string, string | undefined>> = process.env): DerivedCache {
  const dir = root === false || env[DERIVED_CACHE_ENV] === 'off' ? undefined : join(root, 'node_modules', '.cache', 'animal-store-conformance');
  return {
    text(step, inputs, derive) {
      if (dir === undefined) return derive();
      const digest = createHash('sha256');
      for (const input of [step, ...inputs]) digest.update(`${Buffer.byteLength(input)}:`).update(input);
      const path = join(dir, `${step}-${digest.digest('hex')}`);
      try {
        return readFileSync(path, 'utf8');
      } catch {
        // Not there yet (or unreadable): derived below.
      }
      const derived = derive();
      if (derived !== undefined) keep(dir, path, derived);
      return derived;
    },
  };
}

function keep(dir: string, path: string, text: string): void {
  const partial = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(partial, text);
    renameSync(partial, path);
  } catch {
    // Not writable here: the next run derives it again.
    try {
      rmSync(partial, { force: true });
    } catch {
      // Its folder could not be made: there is no partial file.
    }
  }
}

/** The version of a dependency, part of a step's inputs: a new version may derive something else. */
export function dependencyVersion(name: string): string {
  const version = (createRequire(import.meta.url)(`${name}/package.json`) as { version?: unknown }).version;
  return typeof version === 'string' ? version : 'unknown';
}
