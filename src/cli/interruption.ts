import { execFileSync } from 'node:child_process';
import type { Vitest } from 'vitest/node';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/**
 * One Ctrl-C can arrive twice: from the terminal (to the whole process group) and forwarded by `npm run`.
 * A second signal within this long is the same one, not the "exit at once" of a second Ctrl-C.
 */
const SAME_SIGNAL_MS = 1_000;
/** How often the run looks whether npm or npx, which started it, is still there. */
const LAUNCHER_POLL_MS = 500;

export interface Interruption {
  readonly interrupted: boolean;
  /** Removes the signal handlers vitest registered (it exits at once on a signal). */
  takeOverFromVitest(): void;
  dispose(): void;
}

/**
 * Ctrl-C or SIGTERM (a CI job's time-out) ends the run early but still writes the reports, with the
 * tests that finished and an ERR_ABORTED saying the run was interrupted. vitest's own handlers would
 * exit at once, so they are removed once vitest has registered them. A second signal exits at once.
 *
 * Started through npm (`npx`, or `npm run` when its shell does not exec node), a signal may end npm and
 * the shell it started without ever reaching this process: the run would go on orphaned. So a run started
 * by npm watches the npm process and its shell, and ends as if signalled when either goes away.
 */
export function handleInterruption(
  current: () => Vitest | undefined,
  log: (line: string) => void,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Interruption {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  let interruptedAt: number | undefined;
  const stop = (why: string) => {
    interruptedAt = performance.now();
    log(why);
    void current()?.cancelCurrentRun('keyboard-input');
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (interruptedAt !== undefined) {
      if (performance.now() - interruptedAt < SAME_SIGNAL_MS) return;
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
    stop(`${signal}: stopping the run and writing the reports (send it again to exit at once)`);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  const launchers = env.npm_lifecycle_event ? launcherPids() : [];
  const watch =
    launchers.length > 0
      ? setInterval(() => {
          if (interruptedAt !== undefined || launchers.every(alive)) return;
          stop('the npm or npx that started the run has ended: stopping the run and writing the reports');
        }, LAUNCHER_POLL_MS)
      : undefined;
  watch?.unref();
  return {
    get interrupted() {
      return interruptedAt !== undefined;
    },
    takeOverFromVitest() {
      for (const signal of SIGNALS) {
        for (const listener of process.listeners(signal)) {
          if (listener !== onSignal && !before.get(signal)?.has(listener)) process.off(signal, listener);
        }
      }
    },
    dispose() {
      clearInterval(watch);
      for (const signal of SIGNALS) process.off(signal, onSignal);
    },
  };
}

/** The parent, and its parent when the parent is the shell npm ran the command in: npm itself. */
function launcherPids(): number[] {
  const parent = process.ppid;
  if (parent <= 1) return [];
  try {
    const [grandparent, command] = execFileSync('ps', ['-o', 'ppid=,comm=', '-p', String(parent)], { encoding: 'utf8', timeout: 2_000 })
      .trim()
      .split(/\s+/);
    const up = Number(grandparent);
    return /^(sh|dash|bash|zsh)$/.test(command ?? '') && up > 1 ? [parent, up] : [parent];
  } catch {
    // No ps (a minimal container): the parent alone is watched.
    return [parent];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
