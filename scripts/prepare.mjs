#!/usr/bin/env node
// npm's `prepare`: compiles src/ into dist/, the JavaScript the installed command and library run.
//
// npm runs `prepare` after `npm install` / `npm ci` in a clone and when it installs this package from git
// (`npm install git+https://…`: it installs the dev dependencies in the clone first, then prepares, then
// packs). It does not run `prepack` there, so without this a git install had no dist/ at all.
//
// It is also `prepack`. It compiles only when dist/ is missing or older than a source file, a source folder
// (a file deleted or renamed changes its folder's time) or the TypeScript configuration, so:
// - a clone's repeated `npm ci` costs nothing once built;
// - a packed tarball (which ships dist/, every file with the same time) never needs TypeScript: with dist/
//   present and up to date, no dev tool is touched;
// - `npm pack` of a built checkout leaves dist/ alone. Rewriting it there would pull files from under
//   whatever runs dist/ at that moment: the verdict tests pack the checkout while others run its CLI.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'bin', 'cli.js');

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

function upToDate() {
  if (!existsSync(ENTRY)) return false;
  const sources = join(ROOT, 'src');
  if (!existsSync(sources)) return true;
  const built = statSync(ENTRY).mtimeMs;
  const configured = CONFIGURATION.map((name) => join(ROOT, name)).filter((path) => existsSync(path));
  return Math.max(newestSource(sources), ...configured.map((path) => statSync(path).mtimeMs)) <= built;
}

function typescriptCompiler() {
  try {
    return createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

function prepare() {
  if (upToDate()) return 0;
  const tsc = typescriptCompiler();
  if (!tsc) {
    if (existsSync(ENTRY)) {
      console.warn('prepare: dist/ is older than src/ and TypeScript is not installed: dist/ is kept as it is');
      return 0;
    }
    console.error('prepare: dist/ is missing and TypeScript is not installed: install the dev dependencies (npm ci), then npm run build');
    return 1;
  }
  // A fresh dist/: a file whose source was deleted must not linger in it.
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const build = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`prepare: the TypeScript build failed (exit ${build.status ?? build.signal})`);
    return 1;
  }
  return 0;
}

process.exitCode = prepare();
