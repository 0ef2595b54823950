export { conformance, type ConformanceContext } from './conformance.ts';
export type { AddedPet } from './added-pets.ts';
export type { ConformanceMeta } from '../report/test-meta.ts';
export type { PropertyFamily } from './property.ts';
export { type PetRecord, type SourcedPet, describePet, toPetRecord, toPetRecords } from '../model/pets.ts';
export type { RunContext } from './run-context.ts';
export type { ConformanceOptions } from './selection.ts';
