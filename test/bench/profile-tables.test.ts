import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../support/cli.ts';
import { fileSpans, spanRows } from '../../bench/profile/file-spans.ts';
import { threadRows, watchThreads } from '../../bench/profile/thread-cpu.ts';

// bench:profile's tables: a file's span is its first request to its last answer; threads are grouped by role.
describe('bench: the profile of a run', () => {
  test("each file's span runs from its first request to its last answer, files in the order they started", () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
    const har = join(tempDir('prof-'), 'exchanges.har');
    const entries = [
      { startedDateTime: at(900), time: 50, _file: 'suites/b.test.ts' },
      { startedDateTime: at(500), time: 10, _file: 'suites/a.test.ts' },
      { startedDateTime: at(1_000), time: 300, _file: 'suites/a.test.ts' },
    ];
    writeFileSync(har, JSON.stringify({ log: { entries } }));
    const spans = fileSpans(har, Date.UTC(2026, 0, 1));
    expect(spans).toEqual([
      { file: 'suites/a.test.ts', firstMs: 500, lastMs: 1_300, requests: 2 },
      { file: 'suites/b.test.ts', firstMs: 900, lastMs: 950, requests: 1 },
    ]);
    expect(spanRows(spans, 1_400, 100)[2]).toBe('| suites/a.test.ts | 2 | 500 → 1300 | `·····████████·` |');
  });

  test('threads grouped as the main thread, those of the start, those started later and named ones', () => {
    const rows = threadRows(
      10,
      [
        { tid: 10, name: 'node', cpuMs: 1_000, firstSeenMs: 0 },
        { tid: 11, name: 'node', cpuMs: 300, firstSeenMs: 5 },
        { tid: 12, name: 'node', cpuMs: 200, firstSeenMs: 5 },
        { tid: 40, name: 'node', cpuMs: 2_000, firstSeenMs: 400 },
        { tid: 41, name: 'rolldown-worke', cpuMs: 0, firstSeenMs: 300 },
      ],
      150,
    );
    expect(rows.slice(2)).toEqual([
      '| started later (vitest workers) (1) | 2000 | 57% | 2000 |',
      '| main thread (1) | 1000 | 29% | 1000 |',
      "| Node's own (V8 background, libuv) (2) | 500 | 14% | 300, 200 |",
      '| rolldown-worke (1) | 0 | 0% |  |',
      '| all | 3500 | 100% | |',
    ]);
  });

  test.runIf(process.platform === 'linux')('the kernel counts the CPU of this process, its main thread among its threads', () => {
    const watch = watchThreads(process.pid);
    const until = performance.now() + 50;
    while (performance.now() < until);
    const threads = watch.stop();
    expect(watch.available).toBe(true);
    expect(threads.map((t) => t.tid)).toContain(process.pid);
  });
});
