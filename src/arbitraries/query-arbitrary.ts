import fc from 'fast-check';
import type { Contract } from '../contract/index.ts';
import { HarnessError } from '../errors.ts';
import { type SchemaValue, arbitraryFromSchema } from './arbitrary-from-schema.ts';
import type { SchemaNode } from './schema-node.ts';

export interface QueryArbitraryOptions {
  /** Optional parameters to send every time (e.g. `limit` for a test about limits). */
  always?: readonly string[];
}

/** Valid query parameters of an operation, derived from its parameter schemas. */
export function queryArbitrary(contract: Contract, operationId: string, options: QueryArbitraryOptions = {}): fc.Arbitrary<Record<string, SchemaValue>> {
  const { method, path } = contract.operation(operationId);
  const operation = contract.document.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new HarnessError('ERR_SPEC', `no operation ${operationId} at ${method} ${path}`);
  const model: Record<string, fc.Arbitrary<SchemaValue>> = {};
  const requiredKeys: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query') continue;
    model[parameter.name] = arbitraryFromSchema(contract, parameter.schema as SchemaNode);
    if (parameter.required === true || options.always?.includes(parameter.name)) requiredKeys.push(parameter.name);
  }
  return fc.record(model, { requiredKeys });
}
