import type { Vitest } from 'vitest/node';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

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
 */
export function handleInterruption(current: () => Vitest | undefined, log: (line: string) => void): Interruption {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(signal === 'SIGINT' ? 130 : 143);
    interrupted = true;
    log(`${signal}: stopping the run and writing the reports (send it again to exit at once)`);
    void current()?.cancelCurrentRun('keyboard-input');
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  return {
    get interrupted() {
      return interrupted;
    },
    takeOverFromVitest() {
      for (const signal of SIGNALS) {
        for (const listener of process.listeners(signal)) {
          if (listener !== onSignal && !before.get(signal)?.has(listener)) process.off(signal, listener);
        }
      }
    },
    dispose() {
      for (const signal of SIGNALS) process.off(signal, onSignal);
    },
  };
}
