import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * A bench-only vitest reporter: per file, vitest's own diagnostic (prepare, collect, setup, tests), when
 * it started and ended (ms since process start), and its slowest tests — the first test of a file also
 * carries the file-scoped fixture (contract, catalog, client). Written as JSON to BENCH_TIMINGS_OUT.
 */
export default class TimingsReporter implements Reporter {
  private readonly marks: Record<string, number> = { reporterCreated: performance.now() };
  private readonly moduleTimes = new Map<string, { queued?: number; start?: number; end?: number }>();
  private readonly testStarts = new Map<string, number>();
  private readonly testSpans: { file: string; name: string; start: number; end: number }[] = [];

  onInit(): void {
    this.marks.init = performance.now();
  }

  onTestRunStart(): void {
    this.marks.runStart = performance.now();
  }

  onTestModuleQueued(module: TestModule): void {
    this.moduleTimes.set(module.moduleId, { queued: performance.now() });
  }

  onTestModuleStart(module: TestModule): void {
    const entry = this.moduleTimes.get(module.moduleId) ?? {};
    this.moduleTimes.set(module.moduleId, { ...entry, start: performance.now() });
  }

  onTestModuleEnd(module: TestModule): void {
    const entry = this.moduleTimes.get(module.moduleId) ?? {};
    this.moduleTimes.set(module.moduleId, { ...entry, end: performance.now() });
  }

  onTestCaseReady(test: TestCase): void {
    this.testStarts.set(test.id, performance.now());
  }

  onTestCaseResult(test: TestCase): void {
    const start = this.testStarts.get(test.id) ?? Number.NaN;
    this.testSpans.push({ file: relative(process.cwd(), test.module.moduleId), name: test.name, start, end: performance.now() });
  }

  onTestRunEnd(modules: readonly TestModule[]): void {
    this.marks.runEnd = performance.now();
    const files = modules.map((module) => {
      const d = module.diagnostic();
      const tests = [...module.children.allTests()].map((t) => ({ name: t.name, ms: t.diagnostic()?.duration ?? 0 }));
      return {
        file: relative(process.cwd(), module.moduleId),
        ...this.moduleTimes.get(module.moduleId),
        prepareMs: d.prepareDuration,
        collectMs: d.collectDuration,
        setupMs: d.setupDuration,
        testsMs: d.duration,
        firstTestMs: tests[0]?.ms ?? 0,
        tests: tests.length,
        slowest: [...tests].sort((a, b) => b.ms - a.ms).slice(0, 3),
      };
    });
    const out = process.env.BENCH_TIMINGS_OUT;
    if (out) writeFileSync(out, JSON.stringify({ marks: this.marks, files, tests: this.testSpans }, null, 2));
  }
}
