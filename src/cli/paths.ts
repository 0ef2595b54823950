import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package's own directory: the suites and config are found there wherever the CLI is run from. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const VITEST_CONFIG = fileURLToPath(new URL('../../vitest.config.ts', import.meta.url));

export function suiteVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
