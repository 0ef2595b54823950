import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { startReferenceServer } from '../../../src/reference/index.ts';
import { runCli } from '../../support/cli.ts';

/**
 * A key of one letter is redacted wherever that letter stands: the suite's own pet names ("Łajka",
 * "Rocky") go out whole and come back whole, but their records read "Łaj***". Judged on the request's
 * record against the answer as received, a correct server once failed SCH-005, SCH-006, SCH-008, STA-014,
 * INT-004 and CON-002. A rule reads both halves as they went on the wire; what the log cannot prove is
 * untested. Whatever the key, a correct server fails nothing.
 */
describe('a one-letter API key', () => {
  it('a correct server fails nothing: what the redacted log cannot prove is untested', async ({ expect, onTestFinished }) => {
    const server = await startReferenceServer({ keys: [{ key: 'k', plan: 'enterprise', perMinute: 100_000, perDay: 1_000_000 }] });
    onTestFinished(() => server.close());
    const reports = mkdtempSync(join(tmpdir(), 'short-key-'));
    onTestFinished(() => rmSync(reports, { recursive: true, force: true }));
    const result = await runCli(['--target', server.url, '--plan', 'enterprise:100000:1000000', '--report-dir', reports], {
      API_KEY: 'k',
      ASC_HOLD_CONNECTION: '2',
    });
    const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as { requirements: Array<{ id: string; verdict: string }> };
    expect(report.requirements.filter((r) => r.verdict === 'fail').map((r) => r.id)).toEqual([]);
    expect(result.code, result.stdout).toBe(0);
    // The names did go out holding the key's letter: the log shows them redacted, so this is no empty case.
    expect(readFileSync(join(reports, 'exchanges.har'), 'utf8')).toContain('***');
  });
});
