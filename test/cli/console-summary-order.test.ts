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

test('one probable cause is one block: the first failure in full, the others it explains named under it', () => {
  const catalog = parseCatalog(`
version: 1
areas:
  core: Core behaviour
requirements:
  - { id: MUS-001, area: core, level: MUST, source: interface §A, text: The first MUST. }
  - { id: MUS-002, area: core, level: MUST, source: interface §B, text: The second MUST. }
open: []
`);
  const tests = [failed('MUS-001', 'conformance'), failed('MUS-002', 'conformance')];
  const report = buildReport({ runInfo: runInfo(), catalog, tests, harnessErrors: [], strict: false, operations: OPERATIONS });
  const text = formatSummary(report, []);
  expect(text).toContain('FAIL MUS-001');
  expect(text).not.toContain('FAIL MUS-002');
  expect(text).toMatch(/the same probable cause \(listPets answers 200 where 401 is expected\) also fails MUS-002: see the report/);
  // The verdict still names both.
  expect(text).toMatch(/2 MUST requirements fail: MUS-001, MUS-002/);
});
