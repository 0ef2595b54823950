import { expect, test } from 'vitest';
import { DEFAULT_NAME_LIMIT } from '../../src/arbitraries/index.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { createContract } from '../../src/contract/index.ts';
import type { ConformanceReport, TestSummary } from '../../src/report/report-types.ts';
import { INVALID_PROPERTY_KINDS, invalidFamilies, listQueryFamilies, validNewPetFamilies } from '../../suites/support/property-families.ts';
import { runCliInTest } from './support/run-cli.ts';

/**
 * The standard profile (the one CI gates use) sends every family of input; thorough adds volume only.
 * Both profiles run on the embedded reference; the families each property must send are derived from
 * spec/openapi.yaml here, independently of the run.
 */

const contract = createContract();
const options = { nameTag: 'x'.repeat(Math.min(10, DEFAULT_NAME_LIMIT)) };
const names = (families: readonly { name: string }[]): string[] => families.map((family) => family.name);

const EXPECTED_FAMILIES: Record<string, string[]> = {
  'SCH-006': names(validNewPetFamilies(contract, options)),
  'LIM-008': names(listQueryFamilies(contract)),
  ...Object.fromEntries(Object.entries(INVALID_PROPERTY_KINDS).map(([id, kind]) => [id, names(invalidFamilies(contract, kind, options))])),
};

function testsById(report: ConformanceReport): Map<string, TestSummary> {
  return new Map(report.requirements.flatMap((requirement) => requirement.tests.map((t) => [t.id, t] as const)));
}

test('standard runs every test thorough runs, every property with one case of each input family; thorough adds cases, not families', async (context) => {
  const [standard, thorough] = await Promise.all(
    (['standard', 'thorough'] as const).map((profile) =>
      runCliInTest(context, ['--profile', profile, '--seed', '11', '--strict'], { timeoutMs: 120_000, label: `families-${profile}-` }),
    ),
  );
  const standardReport = standard?.report;
  const thoroughReport = thorough?.report;
  expect(standardReport?.verdict.overall).toBe('conformant');
  expect(thoroughReport?.verdict.overall).toBe('conformant');
  if (!standardReport || !thoroughReport) return;

  // Every requirement of the catalog the suite tests is tested at standard, none left to thorough.
  const catalog = loadCatalog();
  for (const requirement of catalog.requirements) {
    const result = standardReport.requirements.find((r) => r.id === requirement.id);
    expect(result, requirement.id).toBeDefined();
    expect(result?.tests.filter((t) => t.skipCode === 'profile').map((t) => t.id) ?? [], `${requirement.id}: tests left to thorough`).toEqual([]);
  }
  const standardTests = testsById(standardReport);
  const thoroughTests = testsById(thoroughReport);
  const ran = (tests: Map<string, TestSummary>) => [...tests.values()].filter((t) => t.state !== 'skipped').map((t) => t.id);
  expect(ran(standardTests).sort()).toEqual(ran(thoroughTests).sort());

  // Each property sends one case of each family at standard, the same families at thorough, and more cases there.
  const properties = standardReport.requirements.flatMap((r) => r.tests.filter((t) => t.property).map((t) => [r.id, t] as const));
  expect(new Set(properties.map(([id]) => id))).toEqual(new Set([...Object.keys(EXPECTED_FAMILIES), 'CON-002']));
  for (const [id, summary] of properties) {
    const expected = EXPECTED_FAMILIES[id];
    if (expected === undefined) continue; // CON-002: a model of commands, not a family of inputs
    expect(summary.property?.families, id).toEqual(expected);
    const deeper = thoroughTests.get(summary.id)?.property;
    expect(deeper?.families, id).toEqual(expected);
    expect(deeper?.numRuns ?? 0, id).toBeGreaterThan(summary.property?.numRuns ?? 0);
  }
});
