import fc from 'fast-check';
import { ConformanceFailure, isConformanceFailure, isHarnessError } from '../errors.ts';
import type { ConformanceMeta } from '../report/test-meta.ts';

export interface PropertyOptions<T> {
  numRuns: number;
  seed: number;
  /** Shrink a failure to a minimal counterexample (costs requests: off on rate-limited profiles). */
  shrink: boolean;
  /** How a case reads in the report, e.g. "createPet accepted categoryId=1.5"; default fc.stringify. */
  describe?: (value: T) => string;
  /**
   * The input families: one case of each runs first (sampled with the seed), then `numRuns` generated
   * ones. So every family is sent in every profile that runs the property; more runs add volume only.
   */
  families?: readonly PropertyFamily<T>[];
  /** --replay: the counterexample's path; only that case runs (and shrinks no further). */
  replayPath?: string;
}

/** A named kind of input (e.g. "categoryId above int64") and the cases it generates. */
export interface PropertyFamily<T> {
  readonly name: string;
  readonly arbitrary: fc.Arbitrary<T>;
}

/**
 * Runs `predicate` on generated cases. On failure meta.property holds the seed, the replay path and the
 * shrunk counterexample, and the ConformanceFailure names the counterexample.
 */
export async function runProperty<T>(
  meta: ConformanceMeta,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T>,
): Promise<void> {
  // A harness error (budget spent, target gone) is not a counterexample: once seen, every later case
  // fails at once without a request, so shrinking ends quickly and the error is rethrown as it was.
  let harnessError: unknown;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (harnessError) throw harnessError;
    try {
      await predicate(value);
    } catch (error) {
      if (isHarnessError(error)) harnessError = error;
      throw error;
    }
  });
  const families = options.families ?? [];
  const examples = families.map((family, index) => fc.sample(family.arbitrary, { seed: options.seed + index, numRuns: 1 }) as [T]);
  const familyNames = families.length > 0 ? { families: families.map((family) => family.name) } : {};
  const details = await fc.check(property, {
    seed: options.seed,
    numRuns: examples.length + options.numRuns,
    endOnFailure: !options.shrink || options.replayPath !== undefined,
    ...(examples.length > 0 ? { examples } : {}),
    ...(options.replayPath !== undefined ? { path: options.replayPath } : {}),
  });
  meta.property = { seed: options.seed, numRuns: details.numRuns, ...familyNames };
  if (harnessError) throw harnessError;
  if (!details.failed) return;

  const counterexample = details.counterexample?.[0] as T;
  const shown = options.describe ? options.describe(counterexample) : fc.stringify(counterexample);
  meta.property = {
    seed: options.seed,
    numRuns: details.numRuns,
    ...familyNames,
    path: details.counterexamplePath ?? undefined,
    counterexample: shown,
    shrinks: details.numShrinks,
  };
  const error = details.errorInstance;
  if (isConformanceFailure(error)) {
    throw new ConformanceFailure(error.requirementId, error.expected, `${error.actual} — counterexample ${shown}`, error.exchangeSeqs);
  }
  throw error instanceof Error ? error : new Error(String(error));
}
