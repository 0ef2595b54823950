import fc from 'fast-check';
import type { Contract } from '../contract/index.ts';
import type { SchemaArbitraryOptions } from './arbitrary-from-schema.ts';
import type { InvalidCase, InvalidationKind } from './invalid-case.ts';
import { invalidationsOf } from './invalidations.ts';

export const NEW_PET_REF = '#/components/schemas/NewPet';

export interface InvalidNewPetOptions extends SchemaArbitraryOptions {
  /** Only these kinds of invalidation; default all. */
  kinds?: readonly InvalidationKind[];
}

/** createPet bodies that are invalid in one named way, each invalidation equally likely. */
export function invalidNewPet(contract: Contract, options: InvalidNewPetOptions): fc.Arbitrary<InvalidCase> {
  const { kinds, ...schemaOptions } = options;
  const invalidations = invalidationsOf(contract, NEW_PET_REF, schemaOptions).filter((m) => !kinds || kinds.includes(m.kind));
  if (invalidations.length === 0) throw new RangeError(`no NewPet invalidation of kind ${kinds?.join(', ')}`);
  return fc.oneof(...invalidations.map((m) => m.arbitrary));
}
