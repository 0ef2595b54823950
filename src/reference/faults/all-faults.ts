import { AUTH_FAULTS, OUTSIDE_AUTH_FAULTS } from './auth-faults.ts';
import { INDEPENDENT_AUTH_FAULTS } from './auth-middleware-faults.ts';
import { DEPRECATION_FAULTS } from './deprecation-faults.ts';
import { ERROR_FAULTS, INDEPENDENT_ERROR_FAULTS } from './error-faults.ts';
import { FRAMING_FAULTS } from './framing-faults.ts';
import type { FaultDefinition } from './hooks.ts';
import { INPUT_FAMILY_FAULTS } from './input-family-faults.ts';
import { INDEPENDENT_LIMIT_FAULTS, LIMIT_FAULTS, OUTSIDE_LIST_FAULTS } from './limit-faults.ts';
import type { OutsideFault } from './outside-fault.ts';
import { INDEPENDENT_VALIDATION_FAULTS } from './pet-field-faults.ts';
import { INDEPENDENT_RATE_LIMIT_FAULTS, OUTSIDE_RATE_LIMIT_FAULTS } from './rate-header-faults.ts';
import { RATE_LIMIT_FAULTS } from './rate-limit-faults.ts';
import { RATE_WINDOW_FAULTS } from './rate-window-faults.ts';
import { INDEPENDENT_DEPRECATION_FAULTS, INDEPENDENT_SCHEMA_FAULTS, INDEPENDENT_STATUS_FAULTS } from './response-shape-faults.ts';
import { OUTSIDE_WIRE_FAULTS, SCHEMA_FAULTS } from './schema-faults.ts';
import { OUTSIDE_RESPONSE_FAULTS, STATUS_FAULTS } from './status-faults.ts';
import { INDEPENDENT_STORE_FAULTS, STORE_FAULTS } from './store-faults.ts';
import { OUTSIDE_NEW_PET_FAULTS, VALIDATION_FAULTS } from './validation-faults.ts';

/**
 * Which set a fault belongs to, a tag on the fault (its file says its area):
 * - existing: the suite's own set, tuned with the suite; every proof iterates over it;
 * - independent (`ind-…`): written from the interface document and the fault API alone, by someone who
 *   had not read the suites or the checks: how the suite does on faults it was never tuned against;
 * - outside (`out-…`): the mistakes of outside-fault-list.md, committed before they first met the suite,
 *   by an author who had read neither the suites, the checks nor the other sets; they name no requirement.
 * The bench counts each set apart; the reference accepts every set's names.
 */
export const FAULT_SET_NAMES = ['existing', 'independent', 'outside'] as const;
export type FaultSetName = (typeof FAULT_SET_NAMES)[number];

export type InSet<Fault, Set extends FaultSetName> = Fault & { readonly set: Set };

/** The faults with their set's tag on each, literal names kept. */
function inSet<const Set extends FaultSetName, Fault extends object>(set: Set, faults: readonly Fault[]): readonly InSet<Fault, Set>[] {
  return Object.freeze(faults.map((fault) => Object.freeze({ ...fault, set })));
}

/**
 * The suite's own set (`startReferenceServer({ faults: [name] })`). A correct conformance suite fails each
 * fault's `detectedBy` requirements (it may fail more: a lost write upsets many tests; only the ones that
 * must fail are listed). strictOnly faults break only SHOULD requirements and show as failures in --strict
 * runs only.
 */
export const FAULTS = inSet('existing', [
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
] as const satisfies readonly FaultDefinition[]);

export type FaultName = (typeof FAULTS)[number]['name'];
export const FAULT_NAMES: readonly FaultName[] = Object.freeze(FAULTS.map((fault) => fault.name));

export function isFaultName(name: string): name is FaultName {
  return (FAULT_NAMES as readonly string[]).includes(name);
}

/** The independent set; every name starts with `ind-`. */
export const INDEPENDENT_FAULTS = inSet('independent', [
  ...INDEPENDENT_AUTH_FAULTS,
  ...INDEPENDENT_RATE_LIMIT_FAULTS,
  ...INDEPENDENT_ERROR_FAULTS,
  ...INDEPENDENT_VALIDATION_FAULTS,
  ...INDEPENDENT_STORE_FAULTS,
  ...INDEPENDENT_LIMIT_FAULTS,
  ...INDEPENDENT_SCHEMA_FAULTS,
  ...INDEPENDENT_STATUS_FAULTS,
  ...INDEPENDENT_DEPRECATION_FAULTS,
] as const satisfies readonly FaultDefinition[]);

export type IndependentFaultName = (typeof INDEPENDENT_FAULTS)[number]['name'];
export const INDEPENDENT_FAULT_NAMES: readonly IndependentFaultName[] = Object.freeze(INDEPENDENT_FAULTS.map((fault) => fault.name));

/** The outside set; every name starts with `out-`. Its hooks are objects, chained after the others'. */
export const OUTSIDE_FAULTS = inSet('outside', [
  ...OUTSIDE_LIST_FAULTS,
  ...OUTSIDE_NEW_PET_FAULTS,
  ...OUTSIDE_WIRE_FAULTS,
  ...OUTSIDE_RESPONSE_FAULTS,
  ...OUTSIDE_AUTH_FAULTS,
  ...OUTSIDE_RATE_LIMIT_FAULTS,
] as const satisfies readonly OutsideFault[]);

export type OutsideFaultName = (typeof OUTSIDE_FAULTS)[number]['name'];
export const OUTSIDE_FAULT_NAMES: readonly OutsideFaultName[] = Object.freeze(OUTSIDE_FAULTS.map((fault) => fault.name));

/** A fault of any set. */
export type AnyFaultName = FaultName | IndependentFaultName | OutsideFaultName;

/** One line of any set, as tools that list or count faults read it. */
export interface TaggedFault {
  readonly name: string;
  readonly set: FaultSetName;
  readonly description: string;
  /** The requirements it breaks; absent for the outside set, whose author had no catalog. */
  readonly detectedBy?: readonly string[];
  readonly strictOnly?: boolean;
  readonly advisoryOnly?: boolean;
}

/** Every named fault of every set, each with its tag. */
export const EVERY_FAULT: readonly TaggedFault[] = Object.freeze([...FAULTS, ...INDEPENDENT_FAULTS, ...OUTSIDE_FAULTS]);

/** The faults that carry the tag. */
export function faultsOfSet(set: FaultSetName): readonly TaggedFault[] {
  return EVERY_FAULT.filter((fault) => fault.set === set);
}
