import { expect, test } from 'vitest';
import { parseCatalog } from '../../src/catalog/catalog.ts';
import { formatSummary } from '../../src/cli/console-summary.ts';
import { buildReport } from '../../src/report/build-report.ts';
import { OPERATIONS, failed, runInfo } from '../support/report-builders.ts';

/** A SHOULD listed before a MUST in the catalog, as RATE-006 is before RATE-012. */
const CATALOG = parseCatalog(`
version: 1
areas:
  core: Core behaviour
requirements:
  - { id: SHD-001, area: core, level: SHOULD, source: interface §B, text: The SHOULD. }
  - { id: MUS-001, area: core, level: MUST, source: interface §A, text: The MUST. }
open: []
`);

test('the console shows a failing MUST before a warning listed earlier in the catalog', () => {
  const tests = [failed('SHD-001', 'conformance'), failed('MUS-001', 'conformance')];
  const report = buildReport({ runInfo: runInfo(), catalog: CATALOG, tests, harnessErrors: [], strict: false, operations: OPERATIONS });
  const text = formatSummary(report, []);
  expect(text.indexOf('FAIL MUS-001')).toBeGreaterThan(-1);
  expect(text.indexOf('FAIL MUS-001')).toBeLessThan(text.indexOf('warn SHD-001'));
});
