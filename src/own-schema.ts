import { type ErrorObject, Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Where a value breaks one of the suite's own JSON Schemas (the report's, the catalog's), compiled for
 * this one check: the module keeps no state. Every run checks its catalog and its report once, so the
 * check that holds is compiled for speed (the first error ends it, the code unoptimised: about half
 * the compile time), and every error is listed only for a value that breaks the schema. The schemas
 * are checked against JSON Schema's meta-schema by test/spec/json-schemas.test.ts, not at each run.
 */
export function ownSchemaErrors(schema: object, value: unknown, options: { strict?: boolean; formats?: boolean } = {}): ErrorObject[] {
  const compile = (allErrors: boolean) => {
    const ajv = new Ajv2020({
      allErrors,
      ...(options.strict === undefined ? {} : { strict: options.strict }),
      allowUnionTypes: true,
      validateSchema: false,
      code: { optimize: allErrors },
    });
    if (options.formats) addFormats.default(ajv);
    return ajv.compile(schema);
  };
  if (compile(false)(value)) return [];
  const validate = compile(true);
  validate(value);
  return validate.errors ?? [];
}
