import type { ErrorObject, Options } from 'ajv/dist/2020.js';
import { ajvModules } from './ajv-modules.ts';
import { standaloneExports } from './standalone-module.ts';
import { type DerivedCache, dependencyVersion, derivedCache } from '../text/derived-cache.ts';

type Check = (value: unknown) => boolean;

/**
 * Where a value breaks one of the suite's own JSON Schemas (the report's, the catalog's), compiled for
 * this one check: the module keeps no state. Every run checks its catalog and its report once, so the
 * check that holds is compiled for speed (the first error ends it, the code unoptimised), and kept as
 * code in the derived cache, so that a later run with the same schema reads it instead of compiling it.
 * Every error is listed only for a value that breaks the schema, by a compile of its own. The schemas
 * are checked against JSON Schema's meta-schema by test/spec/json-schemas.test.ts, not at each run.
 */
export function ownSchemaErrors(
  schema: object,
  value: unknown,
  options: { strict?: boolean; formats?: boolean } = {},
  cache: DerivedCache = derivedCache(),
): ErrorObject[] {
  const ajvOptions = (allErrors: boolean): Options => ({
    allErrors,
    ...(options.strict === undefined ? {} : { strict: options.strict }),
    allowUnionTypes: true,
    validateSchema: false,
    code: { optimize: allErrors, source: !allErrors },
  });
  const ajvOf = (allErrors: boolean) => {
    const { Ajv2020, addFormats } = ajvModules();
    const ajv = new Ajv2020(ajvOptions(allErrors));
    if (options.formats) addFormats(ajv);
    return ajv;
  };
  // Everything the compiled code depends on: ajv's options as given here (not only the caller's), whether
  // formats are added, the packages' versions and the schema.
  const inputs = [
    dependencyVersion('ajv'),
    dependencyVersion('ajv-formats'),
    JSON.stringify(ajvOptions(false)),
    String(options.formats === true),
    JSON.stringify(schema),
  ];
  const code = cache.text('own-schema-check', inputs, () => {
    const ajv = ajvOf(false);
    return ajvModules().standaloneCode(ajv, ajv.compile(schema));
  });
  if ((standaloneExports(code!) as Check)(value)) return [];
  const validate = ajvOf(true).compile(schema);
  validate(value);
  return validate.errors ?? [];
}
