import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TSX_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
export const CLI_BIN = join(REPO_ROOT, 'src', 'bin', 'animal-store-conformance.js');
/** The installed package's executable, compiled by `npm run build` (prepack). */
export const DIST_BIN = join(REPO_ROOT, 'dist', 'bin', 'cli.js');

/** Progress goes to stderr so that stdout holds only the table. */
export function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
