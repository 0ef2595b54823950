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

/** Files that take longest on the embedded reference: the generated cases, and the window the rate-limit file waits out. */
const SLOW_FILES = [/property\.test\.ts$/, /rate-limit\.test\.ts$/, /stateful\.test\.ts$/];

/**
 * On the embedded reference every file has its own headroom and files run side by side: the slowest
 * start first, so the short ones fill the gaps instead of leaving one worker alone at the end.
 */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FILES.findIndex((pattern) => pattern.test(spec.moduleId));
      return index === -1 ? SLOW_FILES.length : index;
    };
    return [...files].sort((a, b) => rank(a) - rank(b) || byPath(a, b));
  }
}
