export { arbitraryFromSchema, type SchemaArbitraryOptions, type SchemaValue } from './arbitrary-from-schema.ts';
export { int64, INT64_EDGES, type Int64Options } from './int64.ts';
export { invalidNewPet, NEW_PET_REF, type InvalidNewPetOptions } from './invalid-new-pet.ts';
export type { InvalidCase, InvalidationKind } from './invalid-case.ts';
export { invalidationsOf, type Invalidation } from './invalidations.ts';
export { queryArbitrary, type QueryArbitraryOptions } from './query-arbitrary.ts';
export { DEFAULT_NAME_LIMIT, taggedName, type TaggedNameOptions } from './tagged-name.ts';
export type { SchemaNode, SchemaSource } from './schema-node.ts';
export { REALISTIC_PET_NAMES, petNameLabel, realisticPetName, runPetName } from './pet-names.ts';
