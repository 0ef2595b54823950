import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type Reporter, startVitest } from 'vitest/node';
import { afterEach, describe, expect, test } from 'vitest';
import { ConformanceReporter } from '../../src/report/conformance-reporter.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { OPERATIONS, TINY_CATALOG, runInfo } from '../support/report-builders.ts';

const FIXTURE_ROOT = fileURLToPath(new URL('./fixtures/reporter-run/', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-reporter-'));
  dirs.push(dir);
  return dir;
}

function reporterInto(reportDir: string, results: ConformanceReport[] = []): ConformanceReporter {
  return new ConformanceReporter({
    runInfo: () => runInfo({ endedAt: new Date().toISOString() }),
    catalog: TINY_CATALOG,
    reportDir,
    strict: false,
    operations: OPERATIONS,
    onResult: (report) => results.push(report),
  });
}

/** The nested run's console output (a failing setup prints its error) is not this run's business. */
function sink(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/** Runs the fixture suite in a nested vitest; its failing tests must not fail this process. */
async function runFixture(options: {
  reporters: Array<Reporter | ['blob', { outputFile: string }]>;
  globalSetup?: string[];
  mergeReports?: string;
}): Promise<void> {
  const exitCode = process.exitCode;
  const vitest = await startVitest(
    'test',
    [],
    {
      root: FIXTURE_ROOT,
      config: false,
      watch: false,
      include: ['*.fixture.ts'],
      reporters: options.reporters,
      globalSetup: options.globalSetup ?? [],
      ...(options.mergeReports ? { mergeReports: options.mergeReports } : {}),
    },
    { cacheDir: tempDir() },
    { stdout: sink(), stderr: sink() },
  );
  await vitest.close();
  process.exitCode = exitCode;
}

const verdicts = (report: ConformanceReport | undefined) => Object.fromEntries((report?.requirements ?? []).map((r) => [r.id, r.verdict]));

describe('ConformanceReporter in a real vitest run', () => {
  test('turns task meta into verdicts and writes the three reports', async () => {
    const dir = tempDir();
    const results: ConformanceReport[] = [];
    const reporter = reporterInto(dir, results);
    await runFixture({ reporters: [reporter] });
    expect(verdicts(reporter.result)).toEqual({ 'MUS-001': 'pass', 'MUS-002': 'fail', 'SHD-001': 'warn', 'MAY-001': 'skipped', 'NCV-001': 'not-covered' });
    expect(reporter.result?.verdict.overall).toBe('not-conformant');
    expect(reporter.result?.requirements.find((r) => r.id === 'MAY-001')?.reason).toBe('read-only mode: the test would call createPet');
    expect(results).toEqual([reporter.result]);
    expect(reporter.exchanges.map((e) => e.seq)).toEqual([1, 2]);
    for (const file of ['conformance.html', 'conformance.json', 'junit.xml']) expect(existsSync(join(dir, file)), file).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).verdict.overall).toBe('not-conformant');
  });

  test('a failed global setup still writes an incomplete report', async () => {
    const dir = tempDir();
    const reporter = reporterInto(dir);
    await runFixture({ reporters: [reporter], globalSetup: ['./fail-setup.ts'] });
    expect(reporter.result?.verdict.overall).toBe('incomplete');
    expect(reporter.result?.verdict.exitCode).toBe(2);
    expect(reporter.result?.harnessErrors[0]?.message).toMatch(/global setup failed/);
    expect(verdicts(reporter.result)['MUS-001']).toBe('skipped');
    expect(existsSync(join(dir, 'conformance.html'))).toBe(true);
  });

  test('blob reports merged with --merge-reports give the same verdicts (sharded runs)', async () => {
    const blobs = tempDir();
    await runFixture({ reporters: [['blob', { outputFile: join(blobs, 'blob-1-1.json') }]] });
    const dir = tempDir();
    const reporter = reporterInto(dir);
    await runFixture({ reporters: [reporter], mergeReports: blobs });
    expect(verdicts(reporter.result)).toMatchObject({ 'MUS-001': 'pass', 'MUS-002': 'fail', 'SHD-001': 'warn', 'MAY-001': 'skipped' });
    expect(existsSync(join(dir, 'junit.xml'))).toBe(true);
  });
});

describe('ConformanceReporter when the run ends badly', () => {
  test('an interrupted run is incomplete', () => {
    const reporter = reporterInto(tempDir());
    reporter.onTestRunEnd([], [], 'interrupted');
    expect(reporter.result?.verdict.overall).toBe('incomplete');
    expect(reporter.result?.harnessErrors[0]).toMatchObject({ code: 'ERR_ABORTED' });
  });

  test('an unhandled error is a harness error that keeps its code', () => {
    const reporter = reporterInto(tempDir());
    reporter.onTestRunEnd([], [{ name: 'HarnessError', message: 'no answer in time', stack: '', code: 'ERR_TARGET_TIMEOUT' } as never], 'failed');
    expect(reporter.result?.harnessErrors[0]).toEqual({ code: 'ERR_TARGET_TIMEOUT', message: 'unhandled error: no answer in time' });
    expect(reporter.result?.verdict.why).toBe('The run could not be completed: ERR_TARGET_TIMEOUT: unhandled error: no answer in time.');
  });
});
