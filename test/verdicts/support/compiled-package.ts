import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The verdict project's global setup: the whole-CLI runs of runCliInTest start the compiled package
 * (dist/bin/cli.js), as an installed one runs, so dist/ is compiled again first when any source is newer
 * (scripts/prepare.mjs, npm's `prepare`, decides; after `npm ci` it is up to date and costs nothing).
 */
export default function setup(): void {
  const prepare = fileURLToPath(new URL('../../../scripts/prepare.mjs', import.meta.url));
  execFileSync(process.execPath, [prepare], { stdio: 'inherit' });
}
