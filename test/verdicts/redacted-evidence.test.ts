import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { startReferenceServer } from '../../src/reference/index.ts';
import { runRejudge } from '../../src/cli/rejudge-command.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * A pass the log cannot prove is untested. A valid server whose key holds "12345678" and whose minute
 * allows 12,345,678 requests sends X-RateLimit-Limit: 12345678: eight of the key's characters in a row,
 * which the log must not show. The log holds the header as ***, where RATE-002's check and RATE-009's
 * rule fail; the run saw the header as sent, where they pass. The run claims neither pass: RATE-002 and
 * RATE-009 are untested (code unprovable), nothing fails, rejudge gives back the same verdict from the
 * log, and no output shows the eight digits. The same server with a key of no such digits passes RATE-009: the key decided, not the server.
 */

const RUN_TIMEOUT_MS = 120_000;

function rejudged(dir: string): { code: number; differences: string[]; rejudged: string } {
  const lines: string[] = [];
  const code = runRejudge([dir, '--format', 'json'], (line) => lines.push(line));
  const result = JSON.parse(lines.join('\n')) as { differences: string[]; rejudged: string };
  return { code, ...result };
}

test.concurrent.for([
  { key: 'unprovable-Key-12345678', unprovable: true },
  { key: 'provable-Key-abcdefghij', unprovable: false },
])('Limit 12345678 with the key $key: RATE-009 untested when the log hides the header, passed when it shows it', async ({ key, unprovable }, context) => {
  const { expect } = context;
  const server = await startReferenceServer({ keys: [{ key, plan: 'enterprise', perMinute: 12_345_678, perDay: 123_456_789 }], log: () => undefined });
  context.onTestFinished(() => server.close());
  const run = await runCliInTest(context, ['--target', server.url, '--api-key', key, '--profile', 'quick', '--seed', '7'], {
    timeoutMs: RUN_TIMEOUT_MS,
    label: 'redacted-evidence-',
  });
  const report = run.report;
  expect(report, run.stderr).toBeDefined();
  const requirement = (id: string) => report!.requirements.find((r) => r.id === id)!;
  expect(report!.requirements.filter((r) => r.failures.length > 0).map((r) => r.id)).toEqual([]);
  if (unprovable) {
    expect(requirement('RATE-009').verdict).toBe('skipped');
    expect(requirement('RATE-009').untestedCode).toBe('unprovable');
    const stated = report!.requirements.flatMap((r) => r.tests.flatMap((t) => t.unprovable ?? []));
    expect(stated.some((u) => u.requirementId === 'RATE-002' && u.check === 'rate-limit-headers-well-formed')).toBe(true);
    expect(requirement('RATE-002').verdict).not.toBe('pass');
    // The eight digits are the key's: no output shows them, the report's rate-limit traffic included.
    const files = readdirSync(run.reportDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    for (const [place, text] of [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ...files.map((e) => [e.name, readFileSync(join(e.parentPath, e.name), 'utf8')]),
    ])
      expect(text!.includes('12345678'), `${place} shows the key's digits`).toBe(false);
  } else {
    expect(requirement('RATE-009').verdict).toBe('pass');
    expect(report!.requirements.flatMap((r) => r.tests.flatMap((t) => t.unprovable ?? []))).toEqual([]);
  }
  const again = rejudged(run.reportDir);
  expect(again.differences).toEqual([]);
  expect(again.rejudged).toBe(report!.verdict.overall);
});
