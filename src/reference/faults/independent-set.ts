import type { FaultDefinition } from './hooks.ts';
import { INDEPENDENT_AUTH_FAULTS } from './auth-middleware-faults.ts';
import { INDEPENDENT_ERROR_FAULTS } from './error-body-faults.ts';
import { INDEPENDENT_LIMIT_FAULTS } from './list-query-faults.ts';
import { INDEPENDENT_RATE_LIMIT_FAULTS } from './rate-header-faults.ts';
import { INDEPENDENT_DEPRECATION_FAULTS, INDEPENDENT_SCHEMA_FAULTS, INDEPENDENT_STATUS_FAULTS } from './response-shape-faults.ts';
import { INDEPENDENT_STORE_FAULTS } from './persistence-faults.ts';
import { INDEPENDENT_VALIDATION_FAULTS } from './pet-field-faults.ts';

/**
 * A second set of named faults, written from the interface document and the fault API alone, by
 * someone who had not read the suites or the checks: a measure of how the suite does on faults it was
 * never tuned against. Kept apart from FAULTS (the suite's own set, which proofs iterate over); the
 * reference accepts both sets' names. Every name starts with `ind-`.
 */
export const INDEPENDENT_FAULTS = [
  ...INDEPENDENT_AUTH_FAULTS,
  ...INDEPENDENT_RATE_LIMIT_FAULTS,
  ...INDEPENDENT_ERROR_FAULTS,
  ...INDEPENDENT_VALIDATION_FAULTS,
  ...INDEPENDENT_STORE_FAULTS,
  ...INDEPENDENT_LIMIT_FAULTS,
  ...INDEPENDENT_SCHEMA_FAULTS,
  ...INDEPENDENT_STATUS_FAULTS,
  ...INDEPENDENT_DEPRECATION_FAULTS,
] as const satisfies readonly FaultDefinition[];

export type IndependentFaultName = (typeof INDEPENDENT_FAULTS)[number]['name'];

export const INDEPENDENT_FAULT_NAMES: readonly IndependentFaultName[] = Object.freeze(INDEPENDENT_FAULTS.map((fault) => fault.name));
