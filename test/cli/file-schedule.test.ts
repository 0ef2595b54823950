import { describe, expect, test } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { RateLimitLastSequencer, SlowestFirstSequencer, fileSchedule } from '../../src/cli/sequencer.ts';

const FILES = ['auth', 'consistency', 'property', 'rate-limit', 'schemas', 'stateful', 'versioning'].map(
  (name) => ({ moduleId: `/suite/suites/${name}.test.ts` }) as TestSpecification,
);
const names = (specs: TestSpecification[]) => specs.map((s) => s.moduleId.replace(/^.*\/|\.test\.ts$/g, ''));
const shuffled = () => [...FILES].reverse();

describe('file schedule: which files run side by side, and in what order', () => {
  test('a remote target: one file at a time, the rate-limit file last (it spends the shared window)', async () => {
    const schedule = fileSchedule({ embedded: false, referenceFaults: [] }, 8);
    expect(schedule).toMatchObject({ fileParallelism: false, maxWorkers: 1 });
    const order = names(await new schedule.sequencer({} as Vitest).sort(shuffled()));
    expect(order.at(-1)).toBe('rate-limit');
    expect(order.slice(0, -1)).toEqual([...order.slice(0, -1)].sort());
  });

  test('the embedded reference: side by side on two to four workers, the fresh-store files, then the slowest first', async () => {
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 1).maxWorkers).toBe(2);
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 2).maxWorkers).toBe(2);
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 16).maxWorkers).toBe(4);
    const schedule = fileSchedule({ embedded: true, referenceFaults: [] }, 2);
    expect(schedule.fileParallelism).toBe(true);
    expect(schedule.sequencer).toBe(SlowestFirstSequencer);
    const order = names(await new schedule.sequencer({} as Vitest).sort(shuffled()));
    // consistency (CON-003) and limits (LIM-006) need a status page under 100: before the generated cases fill them.
    expect(order.slice(0, 4)).toEqual(['consistency', 'property', 'rate-limit', 'stateful']);
    expect(order.slice(4)).toEqual(['auth', 'schemas', 'versioning']);
  });

  test('the embedded reference with faults injected: one file at a time, so a replay gives the same verdict', () => {
    const schedule = fileSchedule({ embedded: true, referenceFaults: ['id-reuse'] }, 8);
    expect(schedule).toEqual({ fileParallelism: false, maxWorkers: 1, sequencer: RateLimitLastSequencer });
  });
});
