import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runCli, startStandaloneReference } from './lib/processes.ts';
import { progress } from './lib/paths.ts';
import { fmt, seconds } from './lib/stats.ts';

/**
 * The standard profile against a standalone reference on the real Free plan (60/min, 1,000/day, one-minute
 * window): how many requests, how many 429s the client had to wait out, and how the wall time compares
 * with the ideal requests ÷ 60 per minute. Takes about ten minutes of real time.
 */
const BUDGET = 600;
const FREE_PER_MINUTE = 60;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'report-dir': { type: 'string' }, profile: { type: 'string' } } });
  const reportDir = values['report-dir'] ?? join('/tmp', `bench-free-plan-${Date.now()}`);
  const profile = values.profile ?? 'standard';
  mkdirSync(reportDir, { recursive: true });
  const server = await startStandaloneReference('free-key:free');
  progress(`free-plan: reference at ${server.url}; running --profile ${profile} (about 10 minutes); reports in ${reportDir}`);
  try {
    const run = await runCli(['--target', server.url, '--api-key', 'free-key', '--profile', profile], {
      keepReportDir: reportDir,
      timeoutMs: 30 * 60_000,
    });
    const report = run.report;
    if (!report) {
      process.stdout.write(`free-plan: no report (exit ${run.exitCode})\n${run.tail}\n`);
      process.exitCode = 1;
      return;
    }
    const { requestCount, retries, transportErrors } = report.traffic;
    const idealMs = (requestCount / FREE_PER_MINUTE) * 60_000;
    const files = summariseFiles(report);
    const lines = [
      '| Free plan, --profile ' + profile + ' | value |',
      '|---|---|',
      `| exit code / verdict | ${run.exitCode} / ${report.verdict.label} |`,
      `| requests (traffic.requestCount) | ${requestCount} (budget ≤ ${BUDGET}: ${requestCount <= BUDGET ? 'ok' : 'OVER'}) |`,
      `| 429s waited out (traffic.retries) | ${retries}${retries > 0 ? ' — UNINTENDED' : ''} |`,
      `| transport errors | ${transportErrors} |`,
      `| wall time | ${seconds(run.wallMs)} |`,
      `| requests ÷ 60/min | ${seconds(idealMs)} (wall/ideal = ${fmt(run.wallMs / idealMs, 2)}) |`,
      '',
      '| file | tests | requests | duration |',
      '|---|---|---|---|',
      ...files.map((f) => `| ${f.file} | ${f.tests} | ${f.requests} | ${seconds(f.durationMs)} |`),
    ];
    const text = lines.join('\n');
    writeFileSync(join(reportDir, 'free-plan.md'), `${text}\n`);
    process.stdout.write(`${text}\n`);
    if (retries > 0) progress(`free-plan: ${retries} unintended 429s; the exchanges are in ${join(reportDir, 'conformance.json')}`);
  } finally {
    await server.stop();
  }
}

function summariseFiles(report: NonNullable<Awaited<ReturnType<typeof runCli>>['report']>) {
  const byFile = new Map<string, { file: string; tests: number; requests: number; durationMs: number }>();
  const seen = new Set<string>();
  for (const test of report.requirements.flatMap((r) => r.tests)) {
    if (seen.has(test.id)) continue;
    seen.add(test.id);
    const entry = byFile.get(test.file) ?? { file: test.file, tests: 0, requests: 0, durationMs: 0 };
    entry.tests += 1;
    entry.requests += test.requests;
    entry.durationMs += test.durationMs;
    byFile.set(test.file, entry);
  }
  return [...byFile.values()];
}

await main();
