import { HarnessError } from '../../errors.ts';
import { FAULTS } from './all-faults.ts';
import { unknownNameMessage } from '../../nearest-names.ts';
import { INDEPENDENT_FAULTS } from '../independent-faults/index.ts';
import type { FaultDefinition, FaultHooks } from './hooks.ts';

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
