/**
 * The reference implementation of the Animal Store interface: the default target of the suite, and
 * the suite's own test bench.
 *
 *   const server = await startReferenceServer({ keys: [{ key, plan: 'free' }] });   // correct
 *   await startReferenceServer({ faults: ['lost-write'] });            // deliberately wrong (FAULTS)
 *   await startReferenceServer(combineVariants('newest-first'));       // different but valid (VARIANTS)
 */
export { startReferenceServer, type ReferenceServer } from './server.ts';
export type { ReferenceOptions } from './reference-options.ts';
export type { Clock } from './pipeline.ts';
export type { NewPetRecord, PetStoreView, StoredPet } from './store.ts';
export { PLANS, type ApiKey, type ApiKeyConfig, type Limits, type PlanName, type WindowStart } from './api-keys.ts';
export { generateDemoKeys, maskKey, parseApiKeys, resolveApiKeys } from './startup/key-config.ts';
export { ERROR_KINDS, type ErrorKind } from './replies.ts';
export { DEPRECATED_AT_MS, SUNSET_AT_MS, SUNSET_HTTP_DATE } from './deprecation.ts';
export {
  EVERY_FAULT,
  FAULTS,
  FAULT_NAMES,
  FAULT_SET_NAMES,
  INDEPENDENT_FAULTS,
  INDEPENDENT_FAULT_NAMES,
  OUTSIDE_FAULTS,
  OUTSIDE_FAULT_NAMES,
  faultsOfSet,
  isFaultName,
  type FaultDefinition,
  type FaultGroup,
  type FaultName,
  type FaultSetName,
  type IndependentFaultName,
  type OutsideFaultName,
  type TaggedFault,
} from './faults/index.ts';
export { VARIANTS, VARIANT_NAMES, combineVariants, mergeVariantOptions, type VariantDefinition, type VariantName } from './variants.ts';
