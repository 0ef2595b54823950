import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { HarnessError } from '../errors.ts';

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
 * The order files start in on the embedded reference, where every file has its own headroom and files run
 * side by side on more workers than cores (embeddedWorkers):
 * - the two files that spend most of their time asleep first, each on a worker of its own: the rate-limit
 *   file (a window to spend, a Retry-After to wait out) and the fingerprints file (its connection held
 *   for --hold-connection), so that their sleeps overlap the CPU work of the other workers instead of
 *   coinciding (two workers both asleep left both cores idle);
 * - the two short files that need a list shorter than 100 (LIM-006, CON-003), before the generated cases
 *   fill every status page of the embedded store, which would leave those requirements unprovable;
 * - the generated cases, in three files so that the workers not asleep share them (the longest first),
 *   with HTTP-001's quiet windows after the first, where their waits overlap work;
 * - then the rest, whose short files fill the gaps instead of leaving one worker alone at the end.
 */
const EMBEDDED_ORDER = [
  /rate-limit\.test\.ts$/,
  /fingerprints\.test\.ts$/,
  /consistency\.test\.ts$/,
  /limits\.test\.ts$/,
  /property\.test\.ts$/,
  /http\.test\.ts$/,
  /property-lists\.test\.ts$/,
  /property-invalid\.test\.ts$/,
  /stateful\.test\.ts$/,
];

/** The embedded reference's order (EMBEDDED_ORDER), the files it does not name after it, by path. */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = EMBEDDED_ORDER.findIndex((pattern) => pattern.test(spec.moduleId));
      return index === -1 ? EMBEDDED_ORDER.length : index;
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
export function fileSchedule(
  target: { embedded: boolean; referenceFaults: readonly string[] },
  cores = availableParallelism(),
  workers: number | undefined = undefined,
): FileSchedule {
  if (!target.embedded || target.referenceFaults.length > 0) return { fileParallelism: false, maxWorkers: 1, sequencer: RateLimitLastSequencer };
  return { fileParallelism: true, maxWorkers: workers ?? embeddedWorkers(cores), sequencer: SlowestFirstSequencer };
}

/** The most workers CONFORMANCE_EMBEDDED_WORKERS may ask for: one per suite file is already more than any run uses. */
const MAX_EMBEDDED_WORKERS = 16;

/**
 * The embedded run's worker count as the CONFORMANCE_EMBEDDED_WORKERS environment variable states it (a
 * benchmark knob, not a user option, like CONFORMANCE_EMBEDDED_SETUP): a count to compare against the
 * default on one machine, since which count is fastest depends on the machine and its other load.
 * Undefined when unset: embeddedWorkers decides. Files only run side by side where fileSchedule allows it.
 */
export function embeddedWorkersOverride(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(count >= 1 && count <= MAX_EMBEDDED_WORKERS)) {
    throw new HarnessError('ERR_CONFIG', `CONFORMANCE_EMBEDDED_WORKERS must be a whole number from 1 to ${MAX_EMBEDDED_WORKERS}; got "${value}"`);
  }
  return count;
}

/**
 * Workers for the embedded run: one more than the cores, at least three and at most four. Two files sleep
 * for seconds (the rate-limit file, the held connection) while the others are CPU work: with a worker for
 * each sleeper, the CPU work keeps a worker from the start, where on two workers both were at times asleep
 * together. The extra worker costs its start-up CPU (loading the suite, compiling the contract), less
 * than the seconds of idle cores it saves; beyond four, the three long files no longer get shorter and
 * every worker compiles the contract again.
 */
function embeddedWorkers(cores: number): number {
  return Math.min(Math.max(cores + 1, 3), 4);
}
