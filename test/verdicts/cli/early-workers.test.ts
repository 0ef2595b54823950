import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('../support/early-launch-child.mjs', import.meta.url));
const THREAD_CHILD = fileURLToPath(new URL('../support/early-thread-child.mjs', import.meta.url));

/** What vite and vitest add to an environment: a user's shell has none of it. */
const ADDED = ['TEST', 'VITEST', 'VITEST_MODE', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'FORCE_TTY', 'NODE_ENV', 'PROD', 'DEV', 'BASE_URL', 'MODE'];

async function runChild(mode: string, env: Record<string, string>): Promise<{ adopted: number; exitCode: number; verdict: string }> {
  const shell = Object.fromEntries(Object.entries(process.env).filter(([name]) => !ADDED.includes(name)));
  const reports = mkdtempSync(join(tmpdir(), 'early-workers-'));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [CHILD, join(ROOT, 'dist'), reports, mode], { env: { ...shell, ...env }, timeout: 120_000 });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { adopted: number; exitCode: number; verdict: string };
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}

/**
 * The compiled CLI starts one worker thread before it loads vitest (src/harness/early-workers.ts), with the
 * launch it works out vitest will ask for. vitest takes it only when it asks for exactly that launch, so
 * a launch worked out wrong costs the head start and nothing else. These runs hold the working out to what
 * this vitest asks for (a new vitest that asks otherwise fails here, not silently slower), and the other
 * path to the same run.
 */
describe('the early worker thread', () => {
  it.for([
    ['NODE_ENV unset', {}],
    ['NODE_ENV=production', { NODE_ENV: 'production' }],
  ] as const)('%s: vitest takes the thread started for it', async ([, env], { expect }) => {
    const run = await runChild('same', env);
    expect(run).toEqual({ adopted: 1, exitCode: 0, verdict: 'partial' });
  });

  it.for(['other-launch', 'broken-entry'])('%s: it is not taken, and the run is the same', async (mode, { expect }) => {
    const run = await runChild(mode, {});
    expect(run).toEqual({ adopted: 0, exitCode: 0, verdict: 'partial' });
  });

  it("its pool does what vitest's does: the environment and flags asked for, output piped, stopped for good", async ({ expect }) => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [THREAD_CHILD, join(ROOT, 'dist')], { timeout: 300_000 });
    // What the threads print reaches vitest's streams only: the child's own output is its one line.
    expect(stderr).toBe('');
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout)).toEqual({
      // Every module the early thread preloads is a file of the package.
      preloadFound: true,
      // Started twice, a worker keeps the early thread; it runs with exactly the launch asked for, its
      // output reaches vitest's streams, and each stream's listener ceiling rises by one a pipe.
      taken: { early: true, sameEnv: true, sameFlags: true, adopted: 1, waiting: 0, listenersAdded: 1 },
      // Stopped: the ceiling back, the thread gone, vitest's stream still open.
      stopped: { listenersLeft: 0, afterStop: 'the worker thread was stopped or never started', outputOpen: true },
      // Another launch gets a thread of its own, started as asked, and the early thread still waits.
      otherLaunch: { early: false, sameEnv: true, sameFlags: true, adopted: 0, waiting: 1 },
      // The early thread taken, the next worker gets a thread of vitest's own.
      noneLeft: { early: false, sameEnv: true, sameFlags: true, adopted: 1 },
      // Disposed, the early thread not taken ends.
      disposed: { answeredBefore: true, answersAfter: [], waiting: 0 },
      // An early thread that ended before it was taken is never handed over.
      ended: { early: false, adopted: 0 },
    });
  });
});
