import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.ts';

/** Longer than any pack takes: a lock this old was left by a killed run. */
const STALE_LOCK_MS = 600_000;

/**
 * `npm pack` of this checkout into destination; returns the tarball's path. Its `prepack` compiles src/
 * into this checkout's dist/ when dist/ is stale (the verdicts project's global setup has built it, so
 * normally it is not), and two files packing a stale checkout at once (the verdicts project runs two
 * workers) would write the same files while the other's npm reads them: the packs take turns, through a
 * lock directory that every checkout names after its own path.
 */
export function packPackage(destination: string, env: NodeJS.ProcessEnv = process.env): string {
  const lock = join(tmpdir(), `animal-store-pack-${createHash('sha256').update(ROOT).digest('hex').slice(0, 12)}.lock`);
  acquire(lock);
  try {
    const result = spawnSync('npm', ['pack', '--silent', '--pack-destination', destination], { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env });
    if (result.status !== 0) throw new Error(`npm pack exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
    return join(destination, result.stdout.trim().split('\n').pop() ?? '');
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function acquire(lock: string): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released between the two calls: try again.
      }
      Atomics.wait(pause, 0, 0, 250);
    }
  }
}
