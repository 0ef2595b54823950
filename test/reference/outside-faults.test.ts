import { describe, expect, it } from 'vitest';
import { OUTSIDE_FAULTS, OUTSIDE_FAULT_NAMES } from '../../src/reference/index.ts';
import { manualClock, startServer } from '../support/reference-server.ts';
import { OUTSIDE_PROBES } from './outside-fault-probes.ts';

/** No outside fault is a no-op: each changes an answer of the reference (its probe says which). */
describe('outside faults', () => {
  it('are named out-…, once each, and none is in the other sets', () => {
    expect(new Set(OUTSIDE_FAULT_NAMES).size).toBe(OUTSIDE_FAULTS.length);
    for (const name of OUTSIDE_FAULT_NAMES) expect(name).toMatch(/^out-[a-z0-9-]+$/);
    expect(Object.keys(OUTSIDE_PROBES).sort()).toEqual([...OUTSIDE_FAULT_NAMES].sort());
  });

  it.each(OUTSIDE_FAULT_NAMES)('%s changes what the reference answers', async (name) => {
    const probe = OUTSIDE_PROBES[name];
    // A clock that stands still: no window turns between the two servers' requests.
    const correct = await probe.observe(await startServer({ clock: manualClock(), ...probe.options }));
    const faulty = await probe.observe(await startServer({ clock: manualClock(), ...probe.options, faults: [name] }));
    expect(correct).toBeDefined();
    expect(faulty).not.toEqual(correct);
  });
});
