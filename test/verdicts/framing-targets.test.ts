import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { runRejudge } from '../../src/cli/rejudge-command.ts';
import type { ConformanceReport } from '../../src/report/report-types.ts';
import { type ReferenceServer, startReferenceServer } from '../../src/reference/index.ts';
import { type ConnectionTampering, startTampering } from './support/hostile-servers.ts';
import { findLeaks } from './support/leaks.ts';
import { createLimiter } from './support/limiter.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * HTTP/1.1 framing (HTTP-001) through the CLI: a correct reference behind a proxy that spoils, or keeps
 * to, what a keep-alive client relies on. An unasked-for response after each answer, or a reused
 * connection closed without `Connection: close`, is the target's failure of HTTP-001 (never the budget's,
 * never the suite's); a target that says `Connection: close` and closes is valid HTTP/1.1.
 */

const API_KEY = 'framing-Key-5Hq8Vw2Zr7Kc4Tn9Lm3Xp6';
const CONCURRENCY = 2;
const KILL_AFTER_MS = 120_000;

interface FramingCase {
  name: string;
  tampering: ConnectionTampering;
  exit: number;
  /** What HTTP-001's failure must say, when it fails. */
  mentions?: RegExp;
}

const CASES: readonly FramingCase[] = [
  {
    name: 'sends one more, unasked-for response after each answer',
    tampering: { extraResponse: true },
    exit: 1,
    // At quick the pipelined pair alone: the unasked-for 200 is read as the second answer, the real one follows.
    mentions: /more bytes within \d+ ms: \\"HTTP\/1\.1 /,
  },
  {
    name: 'closes every reused connection without Connection: close',
    tampering: { dropReused: true },
    exit: 1,
    mentions: /closed the connection/,
  },
  { name: 'says Connection: close on every answer and closes (valid)', tampering: { connectionClose: true }, exit: 0 },
];

vi.setConfig({ maxConcurrency: CONCURRENCY });

describe('HTTP/1.1 framing: a desynchronising or connection-dropping target fails HTTP-001', () => {
  const limiter = createLimiter(CONCURRENCY);
  let upstream: ReferenceServer;
  beforeAll(async () => {
    upstream = await startReferenceServer({ keys: [{ key: API_KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }], log: () => undefined });
  });
  afterAll(() => upstream.close());

  for (const framing of CASES) {
    test.concurrent(
      framing.name,
      async ({ expect, onTestFinished }) => {
        const proxy = await startTampering({ onTestFinished }, upstream.url.replace(/\/v1$/, ''), (answer) => answer, framing.tampering);
        const args = ['--target', `${proxy.origin}/v1`, '--api-key', API_KEY, '--profile', 'quick', '--timeout', '5000', '--seed', '7'];
        const run = await limiter.run(() => runCliInTest({ onTestFinished }, args, { timeoutMs: KILL_AFTER_MS, label: 'framing' }));
        const report = run.report;
        const why = `${framing.name}: exit ${run.exitCode}, ${report?.verdict.why ?? 'no report'} (${run.reportDir})\n${run.stdout.slice(-2500)}\n${run.stderr.slice(-1500)}`;
        expect(run.exitCode, why).toBe(framing.exit);
        const http = report?.requirements.find((r) => r.id === 'HTTP-001');
        expect(report?.harnessErrors, why).toEqual([]);
        if (framing.exit === 0) {
          // A remote quick run leaves the standard profile's requirements untested: partial, exit 0.
          expect(['conformant', 'partial'], why).toContain(report?.verdict.overall);
          expect(http?.verdict, why).toBe('pass');
        } else {
          expect(report?.verdict.overall, why).toBe('not-conformant');
          expect(http?.verdict, why).toBe('fail');
          expect(JSON.stringify(http?.failures), why).toMatch(framing.mentions ?? /./);
        }
        expect(findLeaks(API_KEY, run), 'the key, or a near form of it').toEqual([]);
      },
      KILL_AFTER_MS + 30_000,
    );
  }
});

/**
 * The desync, failed and edited into a pass, is refused by the log: the probe records what it heard after
 * each response, and a pass must judge each such exchange by nothing-heard-after.
 */
describe('HTTP-001 failed by a desync and edited into a pass is refused by what the log records', () => {
  let upstream: ReferenceServer;
  beforeAll(async () => {
    upstream = await startReferenceServer({ keys: [{ key: API_KEY, plan: 'enterprise', perMinute: 1_000_000, perDay: 10_000_000 }], log: () => undefined });
  });
  afterAll(() => upstream.close());

  const rejudged = (dir: string) => {
    const lines: string[] = [];
    const code = runRejudge([dir, '--format', 'json'], (line) => lines.push(line));
    return { code, differences: (JSON.parse(lines.join('\n')) as { differences: string[] }).differences.join('\n') };
  };

  test(
    'an unasked-for response after each answer: the failure dropped, then a judgment forged that holds nothing',
    async ({ expect, onTestFinished }) => {
      const proxy = await startTampering({ onTestFinished }, upstream.url.replace(/\/v1$/, ''), (answer) => answer, { extraResponse: true });
      const args = ['--target', `${proxy.origin}/v1`, '--api-key', API_KEY, '--profile', 'quick', '--timeout', '5000', '--seed', '7', '--only', 'HTTP-001'];
      const run = await runCliInTest({ onTestFinished }, args, { timeoutMs: KILL_AFTER_MS, label: 'framing-forged' });
      const path = join(run.reportDir, 'conformance.json');
      const report = JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
      const [test] = report.requirements.find((r) => r.id === 'HTTP-001')?.tests ?? [];
      expect(test?.state, run.stdout).toBe('failed');
      expect(rejudged(run.reportDir)).toEqual({ code: 0, differences: '' });
      if (!test) return;
      test.state = 'passed';
      delete test.failureKind;
      writeFileSync(path, JSON.stringify(report));
      // The probe heard a whole response after the second answer; the pass names no judgment of it.
      expect(rejudged(run.reportDir).differences).toMatch(
        /HTTP-001 .*: passed, but #\d+ \(the framing probe, 200\) is judged by no nothing-heard-after, where a passed HTTP-001 judges every framing probe exchange by nothing-heard-after/,
      );
      // A forger who adds the judgment finds it evaluated on what the log recorded.
      const heard = (
        JSON.parse(readFileSync(join(run.reportDir, 'exchanges.har'), 'utf8')) as { log: { entries: Array<{ _seq: number; _heardAfter?: { bytes: number } }> } }
      ).log.entries.filter((e) => (e._heardAfter?.bytes ?? 0) > 0);
      expect(heard).toHaveLength(1);
      test.judgments = [...(test.judgments ?? []), { kind: 'rule', rule: 'nothing-heard-after', params: {}, exchanges: [heard[0]?._seq ?? 0] }];
      test.observed = test.judgments.length;
      writeFileSync(path, JSON.stringify(report));
      expect(rejudged(run.reportDir).differences).toMatch(
        /HTTP-001 .*: passed, but #\d+ does not hold the rule nothing-heard-after: nothing after the response until the next request expected, \d+ more bytes/,
      );
    },
    KILL_AFTER_MS + 30_000,
  );
});
