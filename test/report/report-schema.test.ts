import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { buildReport } from '../../src/report/build-report.ts';
import { renderJson } from '../../src/report/render-json.ts';
import { OPERATIONS, TINY_CATALOG, failed, runInfo } from '../support/report-builders.ts';
import { sampleReport } from '../support/sample-report.ts';

const SCHEMA_PATH = fileURLToPath(new URL('../../spec/report.schema.json', import.meta.url));

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats.default(ajv);
  return ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);
}

describe('conformance.json', () => {
  const validate = validator();

  test.each([
    ['a run with failures, findings, a deviation and skips', () => sampleReport({ exchangesPerTest: 5 }).report],
    ['an incomplete run', () => sampleReport({ exchangesPerTest: 1, harnessErrors: true }).report],
    [
      'a run in which nothing ran',
      () =>
        buildReport({
          runInfo: runInfo({ shard: '2/3', only: ['core'] }),
          catalog: TINY_CATALOG,
          tests: [],
          harnessErrors: [],
          strict: true,
          operations: OPERATIONS,
        }),
    ],
  ])('validates against spec/report.schema.json: %s', (_title, make) => {
    const parsed: unknown = JSON.parse(renderJson(make()));
    const valid = validate(parsed);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  test('int64 values stay exact because bodies are text; no bigint reaches JSON', () => {
    const text = renderJson(sampleReport({ exchangesPerTest: 1 }).report);
    expect(text).toContain('9223372036854775806');
    expect(text).toContain('-9223372036854775808');
  });

  test('a stray bigint is written as its digits, not rounded and not a crash', () => {
    const report = buildReport({
      runInfo: runInfo(),
      catalog: TINY_CATALOG,
      tests: [failed('MUS-001', 'conformance')],
      harnessErrors: [],
      strict: false,
      operations: OPERATIONS,
    });
    (report.requirements[0] as unknown as { extra: bigint }).extra = 2n ** 63n - 1n;
    expect(renderJson(report)).toContain('"extra": "9223372036854775807"');
  });

  test('the schema rejects a report that leaves out why a requirement was skipped', () => {
    const report = JSON.parse(renderJson(sampleReport({ exchangesPerTest: 1 }).report)) as { requirements: Array<{ verdict: string; reason?: string }> };
    const skipped = report.requirements.find((r) => r.verdict === 'skipped')!;
    delete skipped.reason;
    expect(validate(report)).toBe(false);
  });
});
