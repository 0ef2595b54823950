import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const byPath = (a: TestSpecification, b: TestSpecification) => a.moduleId.localeCompare(b.moduleId);
const isRateLimit = (spec: TestSpecification) => /rate-limit\.test\.ts$/.test(spec.moduleId);

/**
 * On a remote target the files run one at a time on the user's only key; the file that spends the
 * rate limit on purpose goes last, so no other file has to wait out its window.
 */
export class RateLimitLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = [...files].sort(byPath);
    return [...sorted.filter((f) => !isRateLimit(f)), ...sorted.filter(isRateLimit)];
  }
}

/**
 * Files whose tests need a list shorter than 100 (LIM-006, CON-003): they run before the generated cases
 * fill every status page of the embedded store, which would leave those requirements unprovable.
 */
const FRESH_STORE_FILES = [/consistency\.test\.ts$/, /limits\.test\.ts$/];
/** Files that take longest on the embedded reference: the generated cases, and the window the rate-limit file waits out. */
const SLOW_FILES = [/property\.test\.ts$/, /rate-limit\.test\.ts$/, /stateful\.test\.ts$/];

/**
 * On the embedded reference every file has its own headroom and files run side by side: the two short
 * files that need a fresh store first, then the slowest, so the short ones fill the gaps instead of
 * leaving one worker alone at the end.
 */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = [...FRESH_STORE_FILES, ...SLOW_FILES];
    const rank = (spec: TestSpecification) => {
      const index = order.findIndex((pattern) => pattern.test(spec.moduleId));
      return index === -1 ? order.length : index;
    };
    return [...files].sort((a, b) => rank(a) - rank(b) || byPath(a, b));
  }
}

/** How the suite files are spread over vitest's workers. */
export interface FileSchedule {
  fileParallelism: boolean;
  maxWorkers: number;
  sequencer: typeof RateLimitLastSequencer | typeof SlowestFirstSequencer;
}

/**
 * Files side by side only on the embedded reference (every file has headroom there), and not with
 * faults injected: a fault such as "every second pet reuses an id" shows in a test only when no other
 * file creates pets in between, and a self-test must give the same verdict on every replay of its seed.
 * Otherwise one file at a time: a remote key's window is shared by all files; the rate-limit file goes last.
 */
export function fileSchedule(target: { embedded: boolean; referenceFaults: readonly string[] }, cores = availableParallelism()): FileSchedule {
  if (!target.embedded || target.referenceFaults.length > 0) return { fileParallelism: false, maxWorkers: 1, sequencer: RateLimitLastSequencer };
  return { fileParallelism: true, maxWorkers: embeddedWorkers(cores), sequencer: SlowestFirstSequencer };
}

/**
 * Workers for the embedded run: at least two, even on two cores, because the workers spend much of their
 * time waiting on the reference (in the main process) or on the rate-limit file's window; beyond four,
 * the three long files no longer get shorter and every worker compiles the contract again.
 */
function embeddedWorkers(cores: number): number {
  return Math.min(Math.max(cores, 2), 4);
}
