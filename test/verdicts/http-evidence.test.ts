import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runRejudge } from '../../src/cli/rejudge-command.ts';
import { type Har, chainEntries } from '../../src/report/har.ts';
import type { ConformanceReport, TestSummary } from '../../src/report/report-types.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * HTTP-001 and HTTP-002 decided from the log: their probes' exchanges carry what went on the wire
 * (`_wire`), and a response whose checks read a dropped or stray-fed connection carries `_connection`.
 * A genuine run re-judges the same with no check taken as recorded; a fault's run, its failure edited into
 * a pass, is refused by the rules that read those records. Shard runs (`--shard 1/1`) keep every
 * exchange whole, as a certified run does; the log is chained again after each edit, as a merge would.
 */

const RUN_TIMEOUT_MS = 180_000;

interface Rejudged {
  same: boolean;
  differences: string[];
  refusedTests: string[];
  stats: { rules: number; checks: number; rulesTakenAsRecorded: number; rulesUnproven: number };
}

function rejudged(dir: string): Rejudged {
  const lines: string[] = [];
  runRejudge([dir, '--format', 'json'], (line) => lines.push(line));
  return JSON.parse(lines.join('\n')) as Rejudged;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

async function shardRun(context: Parameters<typeof runCliInTest>[0], args: string[]) {
  const run = await runCliInTest(context, ['--shard', '1/1', '--profile', 'standard', '--seed', '3', ...args], {
    timeoutMs: RUN_TIMEOUT_MS,
    label: 'http-evidence-',
  });
  const reportPath = join(run.reportDir, 'conformance.json');
  const harPath = join(run.reportDir, 'exchanges.har');
  const report = readJson<ConformanceReport>(reportPath);
  const har = readJson<Har>(harPath);
  const write = () => {
    chainEntries(har.log.entries);
    writeFileSync(harPath, JSON.stringify(har));
    writeFileSync(reportPath, JSON.stringify(report));
    return rejudged(run.reportDir);
  };
  return { run, report, har, write };
}

/** The forger's edit: the requirement's failed test passed, with the judgment every pass makes on all it sent. */
function forgedPass(report: ConformanceReport, id: string, rule: string): TestSummary {
  const requirement = report.requirements.find((r) => r.id === id);
  const test = requirement?.tests.find((t) => t.state === 'failed');
  if (!requirement || !test) throw new Error(`${id} did not fail`);
  test.state = 'passed';
  delete test.failureKind;
  test.judgments = [...(test.judgments ?? []), { kind: 'rule', rule, params: {}, exchanges: [...(test.exchanges ?? [])] }];
  test.observed = test.judgments.length;
  Object.assign(requirement, { verdict: 'pass', failures: [] });
  return test;
}

describe('HTTP-001 and HTTP-002 re-judged from the records of the wire', () => {
  test(
    'the reference: both pass, and rejudge evaluates every judgment again, no check taken as recorded',
    async ({ onTestFinished }) => {
      const { run } = await shardRun({ onTestFinished }, ['--only', 'HTTP-001,HTTP-002']);
      expect(run.exitCode, run.stdout).toBe(0);
      for (const id of ['HTTP-001', 'HTTP-002']) expect(run.report?.requirements.find((r) => r.id === id)?.verdict).toBe('pass');
      const result = rejudged(run.reportDir);
      expect(result.differences).toEqual([]);
      expect(result.stats).toMatchObject({ checks: 0, rulesTakenAsRecorded: 0, rulesUnproven: 0 });
      expect(result.stats.rules).toBeGreaterThanOrEqual(12);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    "reused-connection-dropped: NOT CONFORMANT; HTTP-001's connection findings erased and its test flipped is refused",
    async ({ onTestFinished }) => {
      const { run, report, har, write } = await shardRun({ onTestFinished }, ['--only', 'HTTP-001,auth', '--reference-faults', 'reused-connection-dropped']);
      expect(run.exitCode, run.stdout).toBe(1);
      expect(report.verdict.overall).toBe('not-conformant');
      expect(report.requirements.find((r) => r.id === 'HTTP-001')?.verdict).toBe('fail');
      const findings = report.requirements.flatMap((r) => r.tests).flatMap((t) => t.findings ?? []);
      expect(findings.filter((f) => f.requirementId === 'HTTP-001').length).toBeGreaterThan(0);
      expect(rejudged(run.reportDir).differences).toEqual([]);

      // Every HTTP-001 finding erased, the probe's failed test passed with the judgment a pass makes.
      for (const t of report.requirements.flatMap((r) => r.tests)) if (t.findings) t.findings = t.findings.filter((f) => f.requirementId !== 'HTTP-001');
      const probe = forgedPass(report, 'HTTP-001', 'framing-probe-kept');
      Object.assign(report.verdict, { overall: 'conformant' });
      const erased = write();
      expect(erased.same).toBe(false);
      expect(erased.differences.join('\n')).toMatch(/the check connection-kept-open fails HTTP-001 on #\d+, which the report does not record/);
      expect(erased.differences.join('\n')).toMatch(
        /HTTP-001 .*: passed, but #\d+ does not hold the rule framing-probe-kept: .*no whole answer to the first request \(closed after 0 bytes\)/,
      );
      expect(erased.refusedTests).toContain(probe.name);

      // The records of the drops erased from the log too: the probe's own records still refuse the pass.
      for (const entry of har.log.entries) delete entry._connection;
      const stripped = write();
      expect(stripped.same).toBe(false);
      expect(stripped.refusedTests).toContain(probe.name);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  test(
    'hostless-request-500: HTTP-002 warns; its test flipped to a pass is refused by answered-400 on the recorded 500',
    async ({ onTestFinished }) => {
      const { run, report, write } = await shardRun({ onTestFinished }, ['--only', 'HTTP-002', '--reference-faults', 'hostless-request-500']);
      expect(report.requirements.find((r) => r.id === 'HTTP-002')?.verdict, run.stdout).toBe('warn');
      expect(rejudged(run.reportDir).differences).toEqual([]);
      const flipped = forgedPass(report, 'HTTP-002', 'answered-400');
      const result = write();
      expect(result.refusedTests).toContain(flipped.name);
      expect(result.differences.join('\n')).toMatch(
        /HTTP-002 .*: passed, but #\d+ does not hold the rule answered-400: answered 400 \(RFC 9112 §3\.2\) expected, 500/,
      );
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});
