import type { FaultHooks } from '../seams.ts';
import { AUTH_FAULTS } from './auth-token-faults.ts';
import type { OutsideFault } from './outside-fault.ts';
import { LIST_FAULTS } from './list-page-faults.ts';
import { NEW_PET_FAULTS } from './create-body-faults.ts';
import { RATE_LIMIT_FAULTS } from './rate-value-faults.ts';
import { RESPONSE_FAULTS } from './wrong-answer-faults.ts';
import { WIRE_FAULTS } from './pet-wire-faults.ts';

/**
 * A third set of named faults, `out-…`: the mistakes of LIST.md, written from the interface description
 * by an author who had not read the suites, the checks or the other sets, the list committed before it
 * first met the suite. Kept apart from FAULTS and from the independent set; the bench counts it apart.
 */
export const OUTSIDE_FAULTS = [
  ...LIST_FAULTS,
  ...NEW_PET_FAULTS,
  ...WIRE_FAULTS,
  ...RESPONSE_FAULTS,
  ...AUTH_FAULTS,
  ...RATE_LIMIT_FAULTS,
] as const satisfies readonly OutsideFault[];

export type OutsideFaultName = (typeof OUTSIDE_FAULTS)[number]['name'];

export const OUTSIDE_FAULT_NAMES: readonly OutsideFaultName[] = Object.freeze(OUTSIDE_FAULTS.map((fault) => fault.name));

const BY_NAME: ReadonlyMap<string, OutsideFault> = new Map(OUTSIDE_FAULTS.map((fault) => [fault.name, fault]));

export function isOutsideFaultName(name: string): name is OutsideFaultName {
  return BY_NAME.has(name);
}

type AnyHook = (value: unknown, ...context: unknown[]) => unknown;

/**
 * Two sets of hooks as one: where both write a seam, the second sees what the first returned. Every
 * hook takes the value computed so far first and returns the value to use, so they chain.
 */
export function chainHooks(first: FaultHooks, second: FaultHooks): FaultHooks {
  const a = first as Record<string, AnyHook | undefined>;
  const b = second as Record<string, AnyHook | undefined>;
  const chained: Record<string, AnyHook> = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const one = a[name];
    const two = b[name];
    if (one && two) chained[name] = (value, ...context) => two(one(value, ...context), ...context);
    else if (one ?? two) chained[name] = (one ?? two) as AnyHook;
  }
  return chained as FaultHooks;
}

/** The hooks of the named outside faults, chained in the order given. */
export function outsideHooks(names: readonly OutsideFaultName[]): FaultHooks {
  return names.reduce<FaultHooks>((hooks, name) => chainHooks(hooks, (BY_NAME.get(name) as OutsideFault).hooks), {});
}
