import { HarnessError } from '../../errors.ts';
import { unknownNameMessage } from '../../text/nearest-names.ts';
import { type AnyFaultName, FAULTS, INDEPENDENT_FAULTS, OUTSIDE_FAULTS, type OutsideFaultName } from './all-faults.ts';
import type { FaultDefinition, FaultHooks } from './hooks.ts';
import type { OutsideFault } from './outside-fault.ts';

export type { AnyFaultName } from './all-faults.ts';

type Hook = (value: unknown, ...context: unknown[]) => unknown;

const NO_HOOKS: FaultHooks = Object.freeze({});

/** The faults whose hooks are created per server: the existing and the independent sets. */
export const KNOWN_FAULTS: readonly FaultDefinition[] = [...FAULTS, ...INDEPENDENT_FAULTS];

/**
 * The hooks of the named faults, created for one server. Faults that share a seam are chained in the
 * order given: each receives the value the previous one returned.
 */
export function composeFaults(names: readonly string[], faults: readonly FaultDefinition[] = KNOWN_FAULTS): FaultHooks {
  if (names.length === 0) return NO_HOOKS;
  const byName = new Map(faults.map((fault) => [fault.name, fault]));
  const composed: Record<string, Hook> = {};
  for (const name of new Set(names)) {
    const fault = byName.get(name);
    if (!fault) throw new HarnessError('ERR_CONFIG', unknownNameMessage('fault', name, [...byName.keys()]));
    for (const [seam, hook] of Object.entries(fault.hooks()) as [string, Hook][]) {
      const previous = composed[seam];
      composed[seam] = previous ? (value, ...context) => hook(previous(value, ...context), ...context) : hook;
    }
  }
  return Object.freeze(composed) as FaultHooks;
}

function outsideFault(name: string): OutsideFault | undefined {
  return OUTSIDE_FAULTS.find((fault) => fault.name === name);
}

export function isOutsideFaultName(name: string): name is OutsideFaultName {
  return outsideFault(name) !== undefined;
}

/**
 * Two sets of hooks as one: where both write a seam, the second sees what the first returned. Every
 * hook takes the value computed so far first and returns the value to use, so they chain.
 */
export function chainHooks(first: FaultHooks, second: FaultHooks): FaultHooks {
  const a = first as Record<string, Hook | undefined>;
  const b = second as Record<string, Hook | undefined>;
  const chained: Record<string, Hook> = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const one = a[name];
    const two = b[name];
    if (one && two) chained[name] = (value, ...context) => two(one(value, ...context), ...context);
    else if (one ?? two) chained[name] = (one ?? two) as Hook;
  }
  return chained as FaultHooks;
}

/** The hooks of the named outside faults, chained in the order given. */
export function outsideHooks(names: readonly OutsideFaultName[]): FaultHooks {
  return names.reduce<FaultHooks>((hooks, name) => chainHooks(hooks, (outsideFault(name) as OutsideFault).hooks), {});
}

/**
 * The faults a reference server starts with, of every set, and their hooks: the outside set's hooks
 * are objects written against the seams directly, chained after the others'.
 */
export function namedFaults(names: readonly AnyFaultName[] = []): { names: readonly AnyFaultName[]; hooks: FaultHooks } {
  const outside = names.filter(isOutsideFaultName);
  const others = names.filter((name) => !isOutsideFaultName(name));
  return { names: Object.freeze([...names]), hooks: chainHooks(composeFaults(others), outsideHooks(outside)) };
}
