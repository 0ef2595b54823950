import { describe, expect, test } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { RateLimitLastSequencer, SlowestFirstSequencer, embeddedWorkersOverride, fileSchedule } from '../../src/cli/sequencer.ts';

const FILES = [
  'auth',
  'consistency',
  'fingerprints',
  'http',
  'limits',
  'property',
  'property-invalid',
  'property-lists',
  'rate-limit',
  'schemas',
  'stateful',
  'versioning',
].map((name) => ({ moduleId: `/suite/suites/${name}.test.ts` }) as TestSpecification);
const names = (specs: TestSpecification[]) => specs.map((s) => s.moduleId.replace(/^.*\/|\.test\.ts$/g, ''));
const shuffled = () => [...FILES].reverse();

describe('file schedule: which files run side by side, and in what order', () => {
  test('a remote target: one file at a time, the rate-limit file last (it spends the shared window)', async () => {
    const schedule = fileSchedule({ embedded: false, referenceFaults: [] }, 8);
    expect(schedule).toMatchObject({ fileParallelism: false, maxWorkers: 1 });
    const order = names(await new schedule.sequencer({} as Vitest).sort(shuffled()));
    expect(order.at(-1)).toBe('rate-limit');
    // By path (property-invalid.test.ts before property.test.ts), as the files are named.
    expect(order.slice(0, -1)).toEqual([...order.slice(0, -1)].sort((a, b) => `${a}.test.ts`.localeCompare(`${b}.test.ts`)));
  });

  test('the embedded reference: side by side on one worker more than the cores (three to four), the two sleeping files first, then the fresh-store files, the generated cases with the quiet windows between them', async () => {
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 1).maxWorkers).toBe(3);
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 2).maxWorkers).toBe(3);
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 3).maxWorkers).toBe(4);
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 16).maxWorkers).toBe(4);
    const schedule = fileSchedule({ embedded: true, referenceFaults: [] }, 2);
    expect(schedule.fileParallelism).toBe(true);
    expect(schedule.sequencer).toBe(SlowestFirstSequencer);
    const order = names(await new schedule.sequencer({} as Vitest).sort(shuffled()));
    // rate-limit (its window, Retry-After) and fingerprints (the held connection) sleep most of their time:
    // first, each on a worker of its own, so that their sleeps overlap the CPU work of the others.
    // consistency (CON-003) and limits (LIM-006) need a status page under 100: before the generated cases fill them.
    // HTTP-001's quiet windows sit after the longest file of generated cases, before the other three.
    expect(order.slice(0, 9)).toEqual([
      'rate-limit',
      'fingerprints',
      'consistency',
      'limits',
      'property',
      'http',
      'property-lists',
      'property-invalid',
      'stateful',
    ]);
    expect(order.slice(9)).toEqual(['auth', 'schemas', 'versioning']);
  });

  test('CONFORMANCE_EMBEDDED_WORKERS: the embedded run side by side on that many workers; one file at a time stays so', () => {
    expect(embeddedWorkersOverride(undefined)).toBeUndefined();
    expect(embeddedWorkersOverride('')).toBeUndefined();
    expect(embeddedWorkersOverride('4')).toBe(4);
    for (const wrong of ['0', '17', '2.5', '-1', 'four', ' 3']) expect(() => embeddedWorkersOverride(wrong)).toThrow(/CONFORMANCE_EMBEDDED_WORKERS/);
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 2, 4)).toMatchObject({ fileParallelism: true, maxWorkers: 4 });
    expect(fileSchedule({ embedded: true, referenceFaults: [] }, 2, undefined).maxWorkers).toBe(3);
    expect(fileSchedule({ embedded: false, referenceFaults: [] }, 2, 4).maxWorkers).toBe(1);
    expect(fileSchedule({ embedded: true, referenceFaults: ['id-reuse'] }, 2, 4).maxWorkers).toBe(1);
  });

  test('the embedded reference with faults injected: one file at a time, so a replay gives the same verdict', () => {
    const schedule = fileSchedule({ embedded: true, referenceFaults: ['id-reuse'] }, 8);
    expect(schedule).toEqual({ fileParallelism: false, maxWorkers: 1, sequencer: RateLimitLastSequencer });
  });
});
