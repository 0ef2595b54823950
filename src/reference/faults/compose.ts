import { HarnessError } from '../../errors.ts';
import { FAULTS } from './all-faults.ts';
import { unknownNameMessage } from '../../nearest-names.ts';
import { INDEPENDENT_FAULTS, type IndependentFaultName } from './independent-set.ts';
import { type OutsideFaultName, chainHooks, isOutsideFaultName, outsideHooks } from './outside-set.ts';
import type { FaultName } from './all-faults.ts';
import type { FaultDefinition, FaultHooks } from './hooks.ts';

/** A fault of any of the three sets. */
export type AnyFaultName = FaultName | IndependentFaultName | OutsideFaultName;

type Hook = (value: unknown, ...context: unknown[]) => unknown;

const NO_HOOKS: FaultHooks = Object.freeze({});

/** Every name a server accepts: the suite's own FAULTS and the independent set (kept apart from FAULTS). */
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

/**
 * The faults a reference server starts with, of every set, and their hooks: the outside set
 * is kept apart from the others, its hooks chained after theirs.
 */
export function namedFaults(names: readonly AnyFaultName[] = []): { names: readonly AnyFaultName[]; hooks: FaultHooks } {
  const outside = names.filter(isOutsideFaultName);
  const others = names.filter((name): name is FaultName | IndependentFaultName => !isOutsideFaultName(name));
  return { names: Object.freeze([...names]), hooks: chainHooks(composeFaults(others), outsideHooks(outside)) };
}
