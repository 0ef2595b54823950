import fc from 'fast-check';
import {
  type InvalidCase,
  type InvalidationKind,
  NEW_PET_REF,
  type SchemaArbitraryOptions,
  type SchemaValue,
  arbitraryFromSchema,
  invalidationsOf,
} from '../../src/arbitraries/index.ts';
import type { Contract } from '../../src/contract/index.ts';
import type { PropertyFamily } from '../../src/harness/index.ts';

type Body = Record<string, SchemaValue>;

/** The requirement each property proves, and the kind of invalid NewPet it sends (for the invalid ones). */
export const INVALID_PROPERTY_KINDS: Readonly<Record<string, InvalidationKind>> = Object.freeze({
  'STA-005': 'missing-field',
  'STA-006': 'wrong-value',
  'STA-007': 'not-object',
  'INT-002': 'out-of-range',
});

/** The PetStatus values, read from the spec. */
export function petStatusValues(contract: Contract): string[] {
  const values = contract.document.components.schemas.PetStatus?.enum;
  return Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
}

/** Each named invalid variant of NewPet of one kind (derived from the spec): one family each. */
export function invalidFamilies(contract: Contract, kind: InvalidationKind, options: SchemaArbitraryOptions): PropertyFamily<InvalidCase>[] {
  return invalidationsOf(contract, NEW_PET_REF, options)
    .filter((invalidation) => invalidation.kind === kind)
    .map((invalidation) => ({ name: invalidation.name, arbitrary: invalidation.arbitrary }));
}

/** SCH-006: a valid NewPet without status, with each PetStatus, with a name past the common bounds, and with its members reordered. */
export function validNewPetFamilies(contract: Contract, options: SchemaArbitraryOptions): PropertyFamily<Body>[] {
  const without = arbitraryFromSchema(contract, NEW_PET_REF, { ...options, withStatus: 'never' }) as fc.Arbitrary<Body>;
  return [
    { name: 'without status', arbitrary: without },
    ...petStatusValues(contract).map((status) => ({ name: `status ${status}`, arbitrary: without.map((body) => ({ ...body, status })) })),
    { name: 'long name', arbitrary: arbitraryFromSchema(contract, NEW_PET_REF, { ...options, longNames: true }) as fc.Arbitrary<Body> },
    // Members in another order (JSON objects are unordered) and a name a body scanner may take for a
    // number: a server that looks for 1e3 or 1.0 in the raw text must not refuse it.
    {
      name: 'categoryId first, a name of digits, a colon and dots',
      arbitrary: without.map((body) => ({ categoryId: body.categoryId as SchemaValue, name: `R2:9.D2 ${options.nameTag ?? ''}`.trimEnd() })),
    },
  ];
}

/** The limit parameter's bounds, read from the spec. */
export function limitRange(contract: Contract): { min: number; max: number } {
  const { method, path } = contract.operation('listPets');
  const parameters = (contract.document.paths[path]?.[method.toLowerCase()]?.parameters ?? []) as {
    name?: string;
    schema?: { minimum?: number; maximum?: number };
  }[];
  const schema = parameters.find((parameter) => parameter.name === 'limit')?.schema;
  return { min: schema?.minimum ?? 1, max: schema?.maximum ?? 100 };
}

/** LIM-008: the limit's two boundaries, and each PetStatus as a filter. */
export function listQueryFamilies(contract: Contract): PropertyFamily<Body>[] {
  const range = limitRange(contract);
  const limit = fc.integer(range);
  return [
    { name: `limit ${range.min}`, arbitrary: fc.constant({ limit: range.min }) },
    { name: `limit ${range.max}`, arbitrary: fc.constant({ limit: range.max }) },
    ...petStatusValues(contract).map((status) => ({ name: `status ${status}`, arbitrary: limit.map((value) => ({ limit: value, status })) })),
  ];
}
