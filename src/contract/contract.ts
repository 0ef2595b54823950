import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ajvModules } from './ajv-modules.ts';
import { HarnessError } from '../errors.ts';
import { type DerivedCache, dependencyVersion, derivedCache } from '../text/derived-cache.ts';
import { exactIntegerKeyword, toValidationSchema } from './int64-keyword.ts';
import { standaloneExports } from './standalone-module.ts';
import { type LoadedSpec, type OpenApiDocument, type OpenApiResponse, loadSpec } from './load-spec.ts';

export interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message: string;
}

export interface ResponseInfo {
  status: string;
  /** `#/components/schemas/X` of the JSON body, when the response has one. */
  schemaRef: string | undefined;
  /** The interface does not state it; the spec admits it as a reasonable server choice. */
  notStated: boolean;
  headers: string[];
}

export interface OperationInfo {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  deprecated: boolean;
  sunset: string | undefined;
  responses: ResponseInfo[];
}

export interface Contract {
  readonly document: OpenApiDocument;
  readonly version: string;
  readonly sha256: string;
  readonly operations: readonly OperationInfo[];
  operation(operationId: string): OperationInfo;
  response(operationId: string, status: number): ResponseInfo | undefined;
  /** Validates `value` against `#/components/schemas/Name`; an empty list means valid. */
  validate(schemaRef: string, value: unknown): ValidationIssue[];
}

const DEFS_ID = 'urn:animal-store:schemas';

const SCHEMA_REF = '#/components/schemas/';

/** ajv's options for the contract's validators: every error of a value, as standalone code. */
const AJV_OPTIONS = { allErrors: true, strict: true, strictTypes: false, validateSchema: false, code: { source: true } } as const;

/**
 * The spec's operations and a validator for each component schema, compiled at the first validation: a
 * process that never validates (the main process of most runs, the workers of a focused one) does not pay
 * for it. The validators are compiled together as standalone code and kept in the derived cache, so that
 * a later process (each worker of a run, the next run) reads the code instead of loading ajv's compiler
 * and compiling again. Create one Contract per process and pass it around.
 */
export function createContract(spec: LoadedSpec = loadSpec(), cache: DerivedCache = derivedCache()): Contract {
  const { document } = spec;
  let compiled: Readonly<Record<string, ValidateFunction>> | undefined;
  // The component schemas are the spec's, checked against JSON Schema's meta-schema, and each compiled, by
  // test/spec/json-schemas.test.ts; strict mode still refuses an unknown keyword at compile time.
  const validators = (): Readonly<Record<string, ValidateFunction>> => {
    if (compiled) return compiled;
    const names = Object.keys(document.components.schemas);
    const defs = toValidationSchema(document.components.schemas);
    // Everything the code depends on: the packages, ajv's options, the keyword's code writer, the schemas.
    const inputs = [
      dependencyVersion('ajv'),
      dependencyVersion('ajv-formats'),
      JSON.stringify(AJV_OPTIONS),
      exactIntegerKeyword.toString(),
      JSON.stringify(defs),
    ];
    const code = cache.text('contract-validators', inputs, () => {
      const { Ajv2020, addFormats, codegen, standaloneCode } = ajvModules();
      const ajv = new Ajv2020(AJV_OPTIONS);
      addFormats(ajv);
      ajv.addKeyword(exactIntegerKeyword(codegen));
      ajv.addVocabulary(['example']);
      ajv.addSchema({ $id: DEFS_ID, $defs: defs });
      return standaloneCode(ajv, Object.fromEntries(names.map((name) => [name, `${DEFS_ID}#/$defs/${name}`])));
    });
    compiled = standaloneExports(code!) as Record<string, ValidateFunction>;
    return compiled;
  };

  const validatorOf = (schemaRef: string): ValidateFunction => {
    const name = schemaRef.slice(SCHEMA_REF.length);
    if (!schemaRef.startsWith(SCHEMA_REF) || !Object.hasOwn(document.components.schemas, name)) {
      throw new HarnessError('ERR_SPEC', `no schema ${schemaRef} in the spec`);
    }
    const validator = validators()[name];
    if (!validator) throw new HarnessError('ERR_SPEC', `schema ${name} did not compile`);
    return validator;
  };

  const operations = readOperations(document);
  const byId = new Map(operations.map((op) => [op.operationId, op]));

  return Object.freeze({
    document,
    version: document.info.version,
    sha256: spec.sha256,
    operations,
    operation(operationId: string): OperationInfo {
      const op = byId.get(operationId);
      if (!op) throw new HarnessError('ERR_SPEC', `no operation ${operationId} in the spec`);
      return op;
    },
    response(operationId: string, status: number): ResponseInfo | undefined {
      return byId.get(operationId)?.responses.find((r) => r.status === String(status));
    },
    validate(schemaRef: string, value: unknown): ValidationIssue[] {
      const validator = validatorOf(schemaRef);
      if (validator(value)) return [];
      return (validator.errors ?? []).map((e) => ({
        instancePath: e.instancePath,
        keyword: e.keyword,
        message: e.message ?? e.keyword,
      }));
    },
  });
}

function readOperations(document: OpenApiDocument): OperationInfo[] {
  const out: OperationInfo[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const responses = Object.entries(op.responses).map(([status, raw]) => {
        const response = resolveResponse(document, raw);
        const schema = response.content?.['application/json']?.schema;
        return {
          status,
          schemaRef: typeof schema?.$ref === 'string' ? schema.$ref : undefined,
          notStated: response['x-not-stated'] === true,
          headers: Object.keys(response.headers ?? {}),
        };
      });
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase() as OperationInfo['method'],
        path,
        deprecated: op.deprecated === true,
        sunset: op['x-sunset'],
        responses,
      });
    }
  }
  return out;
}

function resolveResponse(document: OpenApiDocument, raw: OpenApiResponse | { $ref: string }): OpenApiResponse {
  if (!('$ref' in raw)) return raw;
  const name = raw.$ref.replace('#/components/responses/', '');
  const response = document.components.responses[name];
  if (!response) throw new HarnessError('ERR_SPEC', `unresolved response ${raw.$ref}`);
  return response;
}
