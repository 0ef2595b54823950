import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Circuit breakers of a run: an operation that gets no answer (time-out, reset) this many times IN A ROW
 * is no longer sent, and a target whose 429s contradict its own X-RateLimit-Remaining this many times is
 * no longer waited for. Any answer to the operation starts its count again, so a target that drops one
 * connection in ten, or three network blips over a long run, never trips it; a target that stopped
 * answering one path costs a few time-outs, not one per test case, and the run ends.
 */
export const BREAKER_THRESHOLD = 3;

/**
 * Why an operation is no longer sent, as the tests that needed it fail with it. The report groups those
 * failures by the operation it names (operationWithoutAnswer), whatever answer each test had before.
 */
export function noAnswerReason(operation: string, inARow: number, last: string): string {
  return `no answer from ${operation} ${inARow} times in a row (last: ${last}); the suite stopped sending it`;
}

const NO_ANSWER = /^no answer from (.+?) \d+ times in a row \(last: /;

/** The operation a noAnswerReason names; undefined for any other text. */
export function operationWithoutAnswer(reason: string): string | undefined {
  return NO_ANSWER.exec(reason)?.[1];
}

/** The key for 429s that came while the target's own headers said requests were left. */
export const RATE_LIMIT_KEY = 'rate-limit';

export interface Breaker {
  /** Why requests under this key are no longer sent; undefined while the breaker is closed. */
  openReason(key: string): string | undefined;
  /**
   * A failure under this key. `describe` says what happened, given how many failures came in a row with
   * this one: the text kept is the latest, so an open breaker's reason names the count and the last error.
   */
  recordFailure(key: string, describe: (inARow: number) => string): void;
  /** An answer under this key: the failures in a row start again from zero (an open breaker stays open). */
  recordSuccess(key: string): void;
}

interface Counter {
  failures: number;
  reason: string;
}

type State = Record<string, Counter>;

/**
 * A breaker whose state lives in `path`, so every worker of a run shares it (written atomically by rename).
 * It is read on every request; until the first failure there is no file, which costs a stat and no throw.
 */
export function createFileBreaker(path: string, threshold = BREAKER_THRESHOLD): Breaker {
  const read = (): State => {
    if (!existsSync(path)) return {};
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as State;
    } catch {
      return {};
    }
  };
  const write = (state: State) => {
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(state));
    renameSync(temporary, path);
  };
  return breakerOver(read, write, threshold);
}

/** A breaker kept in memory (one client, the project's own tests). */
export function createMemoryBreaker(threshold = BREAKER_THRESHOLD): Breaker {
  let state: State = {};
  return breakerOver(
    () => state,
    (next) => (state = next),
    threshold,
  );
}

function breakerOver(read: () => State, write: (state: State) => void, threshold: number): Breaker {
  return {
    openReason(key) {
      const counter = read()[key];
      return counter && counter.failures >= threshold ? counter.reason : undefined;
    },
    recordFailure(key, describe) {
      const state = read();
      const failures = (state[key]?.failures ?? 0) + 1;
      write({ ...state, [key]: { failures, reason: describe(failures) } });
    },
    recordSuccess(key) {
      const state = read();
      const counter = state[key];
      // Only a change is written: the common case (no failure counted) costs one read.
      if (!counter || counter.failures === 0 || counter.failures >= threshold) return;
      write({ ...state, [key]: { failures: 0, reason: counter.reason } });
    },
  };
}
