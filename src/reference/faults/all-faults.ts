import { AUTH_FAULTS } from './auth-faults.ts';
import { DEPRECATION_FAULTS } from './deprecation-faults.ts';
import { ERROR_FAULTS } from './error-faults.ts';
import { FRAMING_FAULTS } from './framing-faults.ts';
import type { FaultDefinition } from './hooks.ts';
import { INPUT_FAMILY_FAULTS } from './input-family-faults.ts';
import { LIMIT_FAULTS } from './limit-faults.ts';
import { RATE_LIMIT_FAULTS } from './rate-limit-faults.ts';
import { RATE_WINDOW_FAULTS } from './rate-window-faults.ts';
import { SCHEMA_FAULTS } from './schema-faults.ts';
import { STATUS_FAULTS } from './status-faults.ts';
import { STORE_FAULTS } from './store-faults.ts';
import { VALIDATION_FAULTS } from './validation-faults.ts';

/**
 * Every named deviation the reference can be started with (`startReferenceServer({ faults: [name] })`).
 * A correct conformance suite fails each fault's `detectedBy` requirements (it may fail more: a lost
 * write upsets many tests; only the ones that must fail are listed). strictOnly faults break only
 * SHOULD requirements and show as failures in --strict runs only.
 */
export const FAULTS = [
  ...STATUS_FAULTS,
  ...SCHEMA_FAULTS,
  ...ERROR_FAULTS,
  ...VALIDATION_FAULTS,
  ...STORE_FAULTS,
  ...LIMIT_FAULTS,
  ...AUTH_FAULTS,
  ...RATE_LIMIT_FAULTS,
  ...RATE_WINDOW_FAULTS,
  ...DEPRECATION_FAULTS,
  ...INPUT_FAMILY_FAULTS,
  ...FRAMING_FAULTS,
] as const satisfies readonly FaultDefinition[];

export type FaultName = (typeof FAULTS)[number]['name'];

export const FAULT_NAMES: readonly FaultName[] = Object.freeze(FAULTS.map((fault) => fault.name));

export function isFaultName(name: string): name is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(name);
}
