import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConformanceFailure, isConformanceFailure } from '../../src/errors.ts';
import type { ConformanceMeta } from '../../src/report/test-meta.ts';
import { runProperty } from '../../src/harness/property.ts';

const freshMeta = (): ConformanceMeta => ({ requirementId: 'STA-006', level: 'MUST', area: 'status-codes', findings: [], exchanges: [] });

describe('runProperty', () => {
  it('runs one case of each family first, then the generated ones, and records the families', async () => {
    const seen: number[] = [];
    const meta = freshMeta();
    await runProperty(meta, fc.integer({ min: 0, max: 9 }), async (value) => void seen.push(value), {
      numRuns: 3,
      seed: 1,
      shrink: false,
      families: [
        { name: 'hundreds', arbitrary: fc.integer({ min: 100, max: 199 }) },
        { name: 'thousands', arbitrary: fc.integer({ min: 1000, max: 1999 }) },
      ],
    });
    expect(seen).toHaveLength(5);
    expect(seen[0]).toBeGreaterThanOrEqual(100);
    expect(seen[0]).toBeLessThan(200);
    expect(seen[1]).toBeGreaterThanOrEqual(1000);
    expect(seen.slice(2).every((v) => v < 10)).toBe(true);
    expect(meta.property).toMatchObject({ numRuns: 5, families: ['hundreds', 'thousands'] });
  });

  it('a failure keeps the exchange that decided it and names the counterexample; its path replays that case alone', async () => {
    const meta = freshMeta();
    const fails = async (value: number) => {
      if (value > 5) throw new ConformanceFailure('STA-006', 'at most 5', `${value}`, [40 + value]);
    };
    const error = await runProperty(meta, fc.integer({ min: 0, max: 9 }), fails, { numRuns: 50, seed: 7, shrink: false, describe: (v) => `value ${v}` }).catch(
      (e: unknown) => e,
    );
    expect(isConformanceFailure(error)).toBe(true);
    const failure = error as ConformanceFailure;
    const counterexample = Number(meta.property?.counterexample?.replace('value ', ''));
    expect(failure.actual).toContain(`counterexample value ${counterexample}`);
    expect(failure.exchangeSeqs).toEqual([40 + counterexample]);

    const replayed: number[] = [];
    const again = freshMeta();
    const replay = await runProperty(
      again,
      fc.integer({ min: 0, max: 9 }),
      async (value) => {
        replayed.push(value);
        await fails(value);
      },
      { numRuns: 50, seed: 7, shrink: false, replayPath: meta.property?.path },
    ).catch((e: unknown) => e);
    expect(isConformanceFailure(replay)).toBe(true);
    expect(replayed).toEqual([counterexample]);
  });
});
