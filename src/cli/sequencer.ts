import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * On a remote target the files run one at a time on the user's only key; the file that spends the
 * rate limit on purpose goes last, so no other file has to wait out its window.
 */
export class RateLimitLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
    const isRateLimit = (spec: TestSpecification) => /rate-limit\.test\.ts$/.test(spec.moduleId);
    return [...sorted.filter((f) => !isRateLimit(f)), ...sorted.filter(isRateLimit)];
  }
}
