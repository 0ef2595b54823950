import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { startReferenceServer } from '../../../src/reference/index.ts';
import { runCli } from '../../support/cli.ts';

/**
 * A key of a letter or two is redacted wherever it stands: the suite's own pet names ("Łajka", "Rocky")
 * go out whole and come back whole, but their records read "Łaj***"; with "x7", a raw probe's record of
 * "Content-Length: 47" reads "4***". Judged on a record beside what was received, a correct server once
 * failed SCH-005, SCH-006, SCH-008, STA-014, INT-004, CON-002 (key "k") and HTTP-001 (key "x7"). A rule
 * reads what went on the wire; what the redacted log cannot prove is untested. Whatever the key, a
 * correct server fails nothing.
 */
describe('an API key of a letter or two', () => {
  it.for(['k', 'x7'])('%s: a correct server fails nothing, what the redacted log cannot prove is untested', async (key, { expect, onTestFinished }) => {
    const server = await startReferenceServer({ keys: [{ key, plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 }] });
    onTestFinished(() => server.close());
    const reports = mkdtempSync(join(tmpdir(), 'short-key-'));
    onTestFinished(() => rmSync(reports, { recursive: true, force: true }));
    const result = await runCli(['--target', server.url, '--plan', 'enterprise:100000:1000000', '--report-dir', reports], {
      API_KEY: key,
      ASC_HOLD_CONNECTION: '2',
    });
    const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as { requirements: Array<{ id: string; verdict: string }> };
    expect(report.requirements.filter((r) => r.verdict === 'fail').map((r) => r.id)).toEqual([]);
    expect(result.code, result.stdout).toBe(0);
    // The names did go out holding the key's letter: the log shows them redacted, so this is no empty case.
    expect(readFileSync(join(reports, 'exchanges.har'), 'utf8')).toContain('***');
  });
});
