import { appendFileSync, statSync } from 'node:fs';
import { HarnessError } from '../errors.ts';

/** A request ceiling shared by every client of a run. */
export interface RequestBudget {
  /** Claims one request; throws HarnessError ERR_BUDGET_EXHAUSTED when none is left. */
  take(): void;
  readonly used: number;
  /** undefined = unbounded (requests are still counted). */
  readonly limit: number | undefined;
}

function exhausted(limit: number): HarnessError {
  return new HarnessError('ERR_BUDGET_EXHAUSTED', `the request budget of ${limit} is spent`);
}

function ledgerSize(path: string): number {
  try {
    return statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw new HarnessError('ERR_INTERNAL', 'cannot read the request ledger', { cause: error });
  }
}

/**
 * A budget kept in a file that several worker processes append to: one byte per request, counted by the
 * file's size. O_APPEND writes of one byte do not interleave, so the size is the number of claims.
 * A claim is appended first and checked after, so two workers racing for the last request can both be
 * refused, but the ceiling is never crossed — on a rate-limited target that is the side to err on.
 */
export function createLedgerBudget(path: string, limit: number | undefined): RequestBudget {
  return {
    take() {
      if (limit !== undefined && ledgerSize(path) >= limit) throw exhausted(limit);
      try {
        appendFileSync(path, '.');
      } catch (error) {
        throw new HarnessError('ERR_INTERNAL', 'cannot write the request ledger', { cause: error });
      }
      if (limit !== undefined && ledgerSize(path) > limit) throw exhausted(limit);
    },
    get used() {
      const size = ledgerSize(path);
      return limit === undefined ? size : Math.min(size, limit);
    },
    limit,
  };
}

/** A budget for one process, kept in memory (unit tests, single-worker runs). */
export function createMemoryBudget(limit: number | undefined): RequestBudget {
  let used = 0;
  return {
    take() {
      if (limit !== undefined && used >= limit) throw exhausted(limit);
      used += 1;
    },
    get used() {
      return used;
    },
    limit,
  };
}
