import { describe, expect, test } from 'vitest';
import { parseCatalog } from '../../src/catalog/catalog.ts';
import { formatSummary } from '../../src/cli/console-summary.ts';
import { buildReport } from '../../src/report/build-report.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import { renderJunit } from '../../src/report/render-junit.ts';
import { failingVerdict } from '../../src/report/requirement-verdict.ts';
import { OPERATIONS, failed, passed, runInfo } from '../support/report-builders.ts';

/**
 * An ADVISORY is what a standard asks beyond the interface: broken, it warns, never fails a run (not even
 * with --strict), and every report shows it apart from the interface's own warnings.
 */
const CATALOG = parseCatalog(`
version: 1
areas:
  core: Core behaviour
requirements:
  - { id: MUS-001, area: core, level: MUST, source: interface §A, text: The MUST. }
  - { id: SHD-001, area: core, level: SHOULD, source: interface §B, text: The SHOULD. }
  - { id: ADV-001, area: core, level: ADVISORY, source: RFC 9110 §15.3.2, text: The advisory. }
open: []
`);

function report(strict: boolean, failing: readonly string[]) {
  const tests = ['MUS-001', 'SHD-001', 'ADV-001'].map((id) => (failing.includes(id) ? failed(id, 'conformance') : passed(id)));
  return buildReport({ runInfo: runInfo({ strict }), catalog: CATALOG, tests, harnessErrors: [], strict, operations: OPERATIONS });
}

describe('ADVISORY requirements', () => {
  test('a broken advisory warns, with or without --strict', () => {
    expect(failingVerdict('ADVISORY', false)).toBe('warn');
    expect(failingVerdict('ADVISORY', true)).toBe('warn');
  });

  test.each([false, true])('a run whose only failure is an advisory stays CONFORMANT (strict %s)', (strict) => {
    const r = report(strict, ['ADV-001']);
    expect(r.requirements.find((x) => x.id === 'ADV-001')?.verdict).toBe('warn');
    expect(r.verdict.overall).toBe('conformant');
    expect(r.verdict.exitCode).toBe(0);
    expect(r.counts.ADVISORY.warn).toBe(1);
    expect(r.verdict.why).toContain('1 advisory beyond the interface (ADV-001)');
    expect(r.verdict.why).not.toMatch(/\bwarning/);
  });

  test('a SHOULD still fails under --strict beside a warned advisory', () => {
    const r = report(true, ['SHD-001', 'ADV-001']);
    expect(r.verdict.overall).toBe('not-conformant');
    expect(r.verdict.why).toContain('SHD-001');
    expect(r.verdict.why).not.toContain('ADV-001');
  });

  test('console, JUnit and HTML show the advisory apart from warnings', () => {
    const r = report(false, ['SHD-001', 'ADV-001']);
    const consoleText = formatSummary(r, []);
    const heading = consoleText.indexOf('Advisories (');
    expect(heading).toBeGreaterThan(consoleText.indexOf('warn SHD-001'));
    expect(consoleText.indexOf('warn ADV-001')).toBeGreaterThan(heading);
    const junit = renderJunit(r);
    expect(junit).toContain('ADVISORY (a standard beyond the interface asks this');
    expect(junit).not.toMatch(/<failure[^>]*type="ADVISORY"/);
    const page = renderHtml(r);
    expect(page).toMatch(/data-filter="advisories"[^>]*>Advisories <span class="badge">1<\/span>/);
    expect(page).toMatch(/data-filter="warnings"[^>]*>Warnings <span class="badge">1<\/span>/);
    expect(page).toContain('data-verdict="advisory" data-id="ADV-001"');
  });
});
