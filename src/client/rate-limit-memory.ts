import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { RateLimitState } from './types.ts';

/**
 * The last rate-limit state seen on a key, shared by every client of a run. Test files run one after
 * another on a remote target, each with its own client; without this, a new client would learn that
 * the window is spent only from a 429.
 */
export interface RateLimitMemory {
  read(): RateLimitState | undefined;
  write(state: RateLimitState): void;
}

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

/** The more recent of two observations. */
export function newestState(a: RateLimitState | undefined, b: RateLimitState | undefined): RateLimitState | undefined {
  if (!a) return b;
  if (!b) return a;
  return b.observedAt > a.observedAt ? b : a;
}
