import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBudget } from '../../src/client/budget.ts';
import { waitProgress } from '../../src/harness/file-run.ts';

describe("a worker's rate-limit wait line", () => {
  afterEach(() => vi.restoreAllMocks());

  const written = (liveProgress: boolean): string[] => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const budget = createMemoryBudget(85);
    waitProgress(budget, liveProgress)(12_000, 'X-RateLimit-Remaining 0');
    return lines;
  };

  it("erases the CLI's live progress line first on a terminal, so it is not appended to it", () => {
    const [line] = written(true);
    expect(line).toBe('\r\x1b[K… waiting 12 s for the rate limit (X-RateLimit-Remaining 0); 0 of 85 requests used\n');
  });

  it('writes a plain line in CI and pipes: no escape sequence in a log', () => {
    const [line] = written(false);
    expect(line).toBe('… waiting 12 s for the rate limit (X-RateLimit-Remaining 0); 0 of 85 requests used\n');
  });
});
