import { describe, expect, it } from 'vitest';
import { EVERY_FAULT, FAULTS, FAULT_SET_NAMES, INDEPENDENT_FAULTS, OUTSIDE_FAULTS, faultsOfSet } from '../../src/reference/index.ts';
import { FAULT_SETS } from '../../bench/parts/faults.ts';

describe('fault sets are tags on the faults, not folders', () => {
  it('tags every fault with exactly one set, and each set is what its tag selects', () => {
    expect(EVERY_FAULT.length).toBe(FAULTS.length + INDEPENDENT_FAULTS.length + OUTSIDE_FAULTS.length);
    expect(new Set(EVERY_FAULT.map((fault) => fault.name)).size).toBe(EVERY_FAULT.length);
    expect(faultsOfSet('existing').map((f) => f.name)).toEqual(FAULTS.map((f) => f.name));
    expect(faultsOfSet('independent').map((f) => f.name)).toEqual(INDEPENDENT_FAULTS.map((f) => f.name));
    expect(faultsOfSet('outside').map((f) => f.name)).toEqual(OUTSIDE_FAULTS.map((f) => f.name));
  });

  it("keeps each set's naming: ind- for the independent set, out- for the outside one, neither for the suite's own", () => {
    for (const fault of EVERY_FAULT) {
      const prefix = fault.set === 'independent' ? 'ind-' : fault.set === 'outside' ? 'out-' : undefined;
      if (prefix) expect(fault.name.startsWith(prefix), fault.name).toBe(true);
      else expect(/^(ind|out)-/.test(fault.name), fault.name).toBe(false);
    }
  });

  it('lets the bench count every set by its tag', () => {
    expect(Object.keys(FAULT_SETS).sort()).toEqual([...FAULT_SET_NAMES].sort());
    for (const set of FAULT_SET_NAMES) expect(FAULT_SETS[set].faults.every((fault) => fault.set === set)).toBe(true);
  });
});
