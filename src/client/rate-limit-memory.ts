import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { RateLimitMemory, RateLimitState } from './client-types.ts';

/** A memory kept in one small JSON file (written atomically by rename); readers tolerate its absence. */
export function createFileRateLimitMemory(path: string): RateLimitMemory {
  return {
    read() {
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as RateLimitState;
      } catch {
        return undefined;
      }
    },
    write(state) {
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(state));
      renameSync(temporary, path);
    },
  };
}

/** A memory held in this process only: the clients of one test file share it, with no file to write. */
export function createInProcessRateLimitMemory(): RateLimitMemory {
  let state: RateLimitState | undefined;
  return {
    read: () => state,
    write(next) {
      state = next;
    },
  };
}

/** The more recent of two observations. */
export function newestState(a: RateLimitState | undefined, b: RateLimitState | undefined): RateLimitState | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.observedAt > a.observedAt ? b : a;
}
