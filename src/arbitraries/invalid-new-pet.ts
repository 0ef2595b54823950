import fc from 'fast-check';
import type { Contract } from '../contract/index.ts';
import type { SchemaArbitraryOptions } from './arbitrary-from-schema.ts';
import type { InvalidCase, MutationKind } from './invalid-case.ts';
import { namedMutations } from './named-mutations.ts';

export const NEW_PET_REF = '#/components/schemas/NewPet';

export interface InvalidNewPetOptions extends SchemaArbitraryOptions {
  /** Only these kinds of mutation; default all. */
  kinds?: readonly MutationKind[];
}

/** createPet bodies that are invalid in one named way, each mutation equally likely. */
export function invalidNewPet(contract: Contract, options: InvalidNewPetOptions): fc.Arbitrary<InvalidCase> {
  const { kinds, ...schemaOptions } = options;
  const mutations = namedMutations(contract, NEW_PET_REF, schemaOptions).filter((m) => !kinds || kinds.includes(m.kind));
  if (mutations.length === 0) throw new RangeError(`no NewPet mutation of kind ${kinds?.join(', ')}`);
  return fc.oneof(...mutations.map((m) => m.arbitrary));
}
