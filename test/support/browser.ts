import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { type TestContext, onTestFinished } from 'vitest';

/** The Debian chromium package's binary; CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Chromium for one browser test, closed when the test ends. Without it the test is skipped, except in
 * CI, where .ci/run installs it: a missing browser there is a broken set-up, never a silent skip.
 */
export async function launchChromium(ctx: TestContext): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    const why = `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH`;
    if (process.env.CI === 'true') throw new Error(`${why} (CI=true: the browser check must run)`);
    ctx.skip(why);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  onTestFinished(() => browser.close());
  return browser;
}

/** Where a page and its screenshots go: the directory `keepVariable` names keeps them for a look, else a temp dir. */
export function browserOutputDir(keepVariable: string, prefix: string): string {
  const kept = process.env[keepVariable];
  if (kept) {
    mkdirSync(kept, { recursive: true });
    return kept;
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
