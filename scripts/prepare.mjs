#!/usr/bin/env node
// npm's `prepare`: compiles src/ into dist/, the JavaScript the installed command, the clone's
// `npm run conformance` and the library run.
//
// npm runs `prepare` after `npm install` / `npm ci` in a clone and when it installs this package from git
// (`npm install git+https://…`: it installs the dev dependencies in the clone first, then prepares, then
// packs). It does not run `prepack` there, so without this a git install had no dist/ at all.
//
// It is also `prepack`, and the clone's launcher (src/bin/animal-store-conformance.js) calls `ensureBuilt`
// before every run, so a developer who edits src/ runs their change. It compiles only when dist/ is missing
// or older than a source file, a source folder (a file deleted or renamed changes its folder's time) or the
// TypeScript configuration, so:
// - a clone's repeated `npm ci`, and every run after the first, cost nothing once built;
// - a packed tarball (which ships dist/, every file with the same time) never needs TypeScript: with dist/
//   present and up to date, no dev tool is touched;
// - `npm pack` of a built checkout leaves dist/ alone. Rewriting it there would pull files from under
//   whatever runs dist/ at that moment: the verdict tests pack the checkout while others run its CLI.
// A stale dist/ is compiled again incrementally (dist/.tsbuildinfo: about 2 s for an edited file, against
// 8 s for the whole build), and only its outputs that changed are rewritten; files whose source is gone
// are removed. Two processes that find it stale build one after the other (a lock), never side by side.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, rmdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
const SOURCES = join(ROOT, 'src');
const ENTRY = join(DIST, 'bin', 'cli.js');
/** The incremental build's record; inside dist/ so that a removed dist/ is built whole again. */
const BUILD_INFO = join(DIST, '.tsbuildinfo');
/** Held while one process builds (its pid inside); a lock whose process is gone, or older than this, is left over from a killed build. */
const LOCK = join(ROOT, 'node_modules', '.cache', 'animal-store-conformance-build.lock');
const STALE_LOCK_MS = 120_000;

/** The configuration the build reads besides src/. */
const CONFIGURATION = ['tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time of the TypeScript under dir, and of dir and its folders. */
function newestSource(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether dist/ holds the build of the sources as they are (the entry is touched after every build). */
export function upToDate() {
  if (!existsSync(ENTRY)) return false;
  if (!existsSync(SOURCES)) return true;
  const built = statSync(ENTRY).mtimeMs;
  const configured = CONFIGURATION.map((name) => join(ROOT, name)).filter((path) => existsSync(path));
  return Math.max(newestSource(SOURCES), ...configured.map((path) => statSync(path).mtimeMs)) <= built;
}

function typescriptCompiler() {
  try {
    return createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

/** Removes what dist/ holds for a source that no longer exists (a deleted or renamed file). */
function removeOrphans(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      removeOrphans(path);
      if (readdirSync(path).length === 0) rmdirSync(path);
      continue;
    }
    const stem = /^(.*?)(\.d\.ts|\.js)$/.exec(entry.name);
    if (stem && !existsSync(join(SOURCES, relative(DIST, dir), `${stem[1]}.ts`))) rmSync(path);
  }
}

/** How old the build lock is, or undefined when it was just released. */
function lockAge() {
  try {
    return Date.now() - statSync(LOCK).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether the process that holds the lock is gone (a build stopped by Ctrl-C leaves its lock behind). */
function holderGone() {
  try {
    process.kill(Number(readFileSync(join(LOCK, 'pid'), 'utf8')), 0);
    return false;
  } catch (error) {
    return error?.code === 'ESRCH';
  }
}

/** Waits, without spinning, for another process's build; a lock older than STALE_LOCK_MS is taken over. */
function acquireLock() {
  mkdirSync(join(LOCK, '..'), { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return () => rmSync(LOCK, { recursive: true, force: true });
    } catch (error) {
      if (error?.code !== 'EEXIST') throw error;
      const age = lockAge();
      if (age === undefined) continue;
      if (age > STALE_LOCK_MS || holderGone()) rmSync(LOCK, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 100);
    }
  }
}

function build(tsc, quiet) {
  const whole = !existsSync(BUILD_INFO) || !existsSync(ENTRY);
  // A whole build starts from an empty dist/: a file whose source was deleted must not linger in it.
  if (whole) rmSync(DIST, { recursive: true, force: true });
  const args = [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--incremental', '--tsBuildInfoFile', BUILD_INFO];
  // Quiet (the launcher): the compiler's errors are shown, nothing else is.
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: quiet ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8' });
  if (result.status !== 0) {
    if (quiet && result.stdout) process.stderr.write(result.stdout);
    console.error(`prepare: the TypeScript build failed (exit ${result.status ?? result.signal})`);
    return 1;
  }
  if (!whole) removeOrphans(DIST);
  // The entry's time says when dist/ was last built: an incremental build rewrites only what changed.
  const now = new Date();
  utimesSync(ENTRY, now, now);
  makeRunnable();
  return 0;
}

/**
 * The entry is the package's bin: runnable as a program, as npm's bin links would make it. tsc writes it
 * as a plain file, and npx links a clone's bin (and so makes it runnable) only the first time it meets the
 * clone's path: a clone built again at that path (a CI checkout) ran into 'Permission denied'.
 */
function makeRunnable() {
  if ((statSync(ENTRY).mode & 0o111) !== 0o111) chmodSync(ENTRY, 0o755);
}

/** Compiles dist/ when it is missing or stale; 0 when dist/ is ready to run, 1 otherwise (the reason on stderr). */
export function ensureBuilt({ quiet = false } = {}) {
  if (upToDate()) {
    makeRunnable();
    return 0;
  }
  const tsc = typescriptCompiler();
  if (!tsc) {
    if (existsSync(ENTRY)) {
      console.warn('prepare: dist/ is older than src/ and TypeScript is not installed: dist/ is kept as it is');
      return 0;
    }
    console.error('prepare: dist/ is missing and TypeScript is not installed: install the dev dependencies (npm ci), then npm run build');
    return 1;
  }
  const release = acquireLock();
  try {
    // Another process may have built it while this one waited.
    return upToDate() ? 0 : build(tsc, quiet);
  } finally {
    release();
  }
}

// Run as a script (npm's prepare, the verdict project's global setup), not imported by the launcher.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = ensureBuilt();
