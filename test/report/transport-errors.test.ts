import { describe, expect, test } from 'vitest';
import { parseCatalog } from '../../src/catalog/catalog.ts';
import { formatSummary } from '../../src/cli/console-summary.ts';
import { buildReport } from '../../src/report/build-report.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import { OPERATIONS, exchange, failed, runInfo } from '../support/report-builders.ts';

const CATALOG = parseCatalog(`
version: 1
areas:
  http: Framing
requirements:
  - { id: HTTP-001, area: http, level: MUST, source: interface §A, text: One response per request. }
open: []
`);

/** Requests the target left without an answer are its failures: counted in the console and the page. */
describe('requests without an answer', () => {
  test('are counted as the target’s in the console summary and the HTML traffic section', () => {
    const dropped = (seq: number) =>
      exchange(seq, { response: undefined, error: { code: 'ERR_TARGET_UNREACHABLE', message: 'connection closed by the target' } });
    const tests = [failed('HTTP-001', 'conformance', { exchanges: [exchange(1), dropped(2), exchange(3), dropped(4)] })];
    const report = buildReport({ runInfo: runInfo(), catalog: CATALOG, tests, harnessErrors: [], strict: false, operations: OPERATIONS });
    expect(report.traffic.transportErrors).toBe(2);
    expect(formatSummary(report, [])).toContain('2 requests left without an answer by the target (a connection it closed or reset, or a time-out): the target');
    expect(renderHtml(report)).toContain('2 requests without an answer from the target (its failures, not the budget');
  });

  test('are not mentioned when every request was answered', () => {
    const tests = [failed('HTTP-001', 'conformance')];
    const report = buildReport({ runInfo: runInfo(), catalog: CATALOG, tests, harnessErrors: [], strict: false, operations: OPERATIONS });
    expect(formatSummary(report, [])).not.toContain('without an answer by the target');
  });
});
