import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS_SCHEMA_PATH } from '../../src/catalog/catalog.ts';
import { loadSpec } from '../../src/contract/index.ts';
import { toValidationSchema } from '../../src/contract/int64-keyword.ts';
import { REPORT_SCHEMA_PATH } from '../../src/report/report-consistency.ts';

/**
 * The suite compiles its own schemas without checking them against JSON Schema's meta-schema (that
 * compile would cost every run a tenth of a second): this checks them here instead, as the runs used to.
 */
const readSchema = (path: string): object => JSON.parse(readFileSync(path, 'utf8')) as object;

function metaProblems(schema: unknown): string[] {
  const ajv = new Ajv2020({ strict: false });
  return ajv.validateSchema(schema as object) ? [] : (ajv.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

describe("the suite's JSON Schemas are valid JSON Schema 2020-12", () => {
  const schemas: [string, () => unknown][] = [
    ['spec/requirements.schema.json', () => readSchema(REQUIREMENTS_SCHEMA_PATH)],
    ['spec/report.schema.json', () => readSchema(REPORT_SCHEMA_PATH)],
    ["spec/openapi.yaml's component schemas, as the contract compiles them", () => ({ $defs: toValidationSchema(loadSpec().document.components.schemas) })],
  ];

  it.each(schemas)('%s', (_name, schema) => {
    expect(metaProblems(schema())).toEqual([]);
  });

  it('a broken copy is refused (so the checks above can fail)', () => {
    expect(metaProblems({ type: 'object', properties: { name: { type: 'strin' } } })).not.toEqual([]);
    expect(metaProblems({ $defs: { Pet: { required: 'name' } } })).not.toEqual([]);
  });
});
