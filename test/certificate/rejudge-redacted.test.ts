import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { rejudge } from '../../src/certificate/rejudge.ts';
import { createContract } from '../../src/contract/index.ts';
import { type Har, type HarEntry, toHar } from '../../src/report/har.ts';
import type { ConformanceReport, TestSummary } from '../../src/report/report-types.ts';
import { notConformantRun } from './bundles.ts';
import { MADE_UP } from './logged-run.ts';

/**
 * An answer the log holds redacted (`_redacted`: text like the API key became ***): a check that fails on
 * the record and passed on the answer is what the report states as `unprovable`, and its requirement is
 * then untested, never passed; a failure the run saw there stands as recorded. Rejudge holds both sides:
 * a statement the log does not bear out, or a redacted record's failure the report neither records nor
 * states, is a difference.
 */

const CATALOG = loadCatalog();
const CONTRACT = createContract();

function logged(): { report: ConformanceReport; har: Har } {
  const { report, exchanges } = notConformantRun();
  return { report, har: toHar(exchanges, { name: 'animal-store-conformance', version: report.run.suiteVersion }) };
}

/** A passed test's own entry whose X-RateLimit-Limit the fixture holds, and that test. */
function limitEntry(report: ConformanceReport, har: Har): { entry: HarEntry; test: TestSummary } {
  for (const test of report.requirements.flatMap((r) => r.tests)) {
    if (test.state !== 'passed' || (test.findings?.length ?? 0) > 0) continue;
    const entry = har.log.entries.find((e) => test.exchanges?.includes(e._seq) && e.response.headers.some((h) => /^x-ratelimit-limit$/i.test(h.name)));
    if (entry) return { entry, test };
  }
  throw new Error('no passed test with a rate-limit header in the fixture');
}

/** The entry as the client records it when redaction took eight of the key's characters from its Limit. */
function redactLimit(entry: HarEntry, marked: boolean): void {
  for (const header of entry.response.headers) if (/^x-ratelimit-limit$/i.test(header.name)) header.value = '***';
  if (marked) entry.response._redacted = true;
}

const stated = (entry: HarEntry) => ({ check: 'rate-limit-headers-well-formed', requirementId: 'RATE-002', exchange: entry._seq });

describe('rejudge: answers the log holds redacted', () => {
  it('a stated unprovable check on a redacted record is no difference of findings, and its requirement is not passed', () => {
    const { report, har } = logged();
    const { entry, test } = limitEntry(report, har);
    redactLimit(entry, true);
    test.unprovable = [stated(entry)];
    const text = rejudge(report, har, CATALOG, CONTRACT, MADE_UP).differences.join('\n');
    expect(text).not.toContain('which the report does not record');
    expect(text).not.toContain('the log cannot prove');
    // The report still claims RATE-002 passed: the log gives it untested (unprovable).
    expect(text).toMatch(/RATE-002: states pass, its tests give (partial|skipped) \(re-judged from the log\)/);
  });

  it('the same record without the statement is a failure the report does not record', () => {
    const { report, har } = logged();
    const { entry, test } = limitEntry(report, har);
    redactLimit(entry, true);
    const text = rejudge(report, har, CATALOG, CONTRACT, MADE_UP).differences.join('\n');
    expect(text).toContain(`${test.name}: the check rate-limit-headers-well-formed fails RATE-002 on #${entry._seq}, which the report does not record`);
  });

  it('a statement on a record not marked redacted, or one the log proves, is refused', () => {
    const unmarked = logged();
    const a = limitEntry(unmarked.report, unmarked.har);
    redactLimit(a.entry, false);
    a.test.unprovable = [stated(a.entry)];
    expect(rejudge(unmarked.report, unmarked.har, CATALOG, CONTRACT, MADE_UP).differences.join('\n')).toContain(
      `the report says the log cannot prove rate-limit-headers-well-formed (RATE-002) on #${a.entry._seq}, which the log does not bear out`,
    );

    const whole = logged();
    const b = limitEntry(whole.report, whole.har);
    b.entry.response._redacted = true;
    b.test.unprovable = [stated(b.entry)];
    expect(rejudge(whole.report, whole.har, CATALOG, CONTRACT, MADE_UP).differences.join('\n')).toContain(
      `the report says the log cannot prove rate-limit-headers-well-formed (RATE-002) on #${b.entry._seq}, which the log does not bear out`,
    );
  });
});
