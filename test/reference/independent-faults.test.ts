import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { FAULTS, FAULT_NAMES, INDEPENDENT_FAULTS, INDEPENDENT_FAULT_NAMES, type IndependentFaultName } from '../../src/reference/index.ts';
import type { FaultProbe } from './fault-probe.ts';
import { ACCESS_PROBES } from './independent-fault-probes-access.ts';
import { DATA_PROBES } from './independent-fault-probes-data.ts';
import { call, manualClock, startServer } from '../support/reference-server.ts';

const PROBES: Partial<Record<IndependentFaultName, FaultProbe>> = { ...ACCESS_PROBES, ...DATA_PROBES };

describe('the independent faults', () => {
  const catalog = loadCatalog();

  it('holds at least 25 faults, named ind-…, apart from FAULTS', () => {
    expect(INDEPENDENT_FAULTS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(INDEPENDENT_FAULT_NAMES).size).toBe(INDEPENDENT_FAULTS.length);
    for (const fault of INDEPENDENT_FAULTS) {
      expect(fault.name).toMatch(/^ind(-[a-z0-9]+)+$/);
      expect(fault.description.length, fault.name).toBeGreaterThan(10);
      expect(Object.keys(fault.hooks()).length, fault.name).toBeGreaterThan(0);
    }
    const existing = new Set<string>(FAULT_NAMES);
    expect(INDEPENDENT_FAULT_NAMES.filter((name) => existing.has(name))).toEqual([]);
    expect(FAULTS.some((fault) => fault.name.startsWith('ind-'))).toBe(false);
  });

  it('names only tested requirements of the catalog, and only SHOULD or ADVISORY ones for strictOnly faults (an advisory only warns)', () => {
    for (const fault of INDEPENDENT_FAULTS) {
      expect(fault.detectedBy.length, fault.name).toBeGreaterThan(0);
      const levels = fault.detectedBy.map((id) => {
        expect(catalog.has(id), `${fault.name}: ${id}`).toBe(true);
        expect(catalog.get(id).coverage, `${fault.name}: ${id}`).toBe('tested');
        return catalog.get(id).level;
      });
      if ('strictOnly' in fault && fault.strictOnly)
        expect(
          levels.every((level) => level === 'SHOULD' || level === 'ADVISORY'),
          fault.name,
        ).toBe(true);
      else expect(levels, fault.name).toContain('MUST');
    }
  });

  it('has a behaviour probe for every fault', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...INDEPENDENT_FAULT_NAMES].sort());
  });

  it('is accepted by name, composed with a fault of FAULTS', async () => {
    const server = await startServer({ faults: ['ind-sch-create-200', FAULT_NAMES[0] as (typeof FAULT_NAMES)[number]] });
    expect(server.faults).toContain('ind-sch-create-200');
    expect((await call(server, 'POST', '/pets', { body: '{"name":"a","categoryId":1}' })).status).toBe(200);
  });
});

describe('every independent fault changes what the server does', () => {
  for (const fault of INDEPENDENT_FAULTS) {
    it(`${fault.group}: ${fault.name}`, async () => {
      const probe = PROBES[fault.name];
      if (!probe) throw new Error(`no probe for ${fault.name}`);
      const correctClock = manualClock();
      const faultyClock = manualClock();
      const correct = await startServer({ clock: correctClock, ...probe.options });
      const faulty = await startServer({ clock: faultyClock, ...probe.options, faults: [fault.name] });
      const expected = await probe.run({ server: correct, clock: correctClock });
      const actual = await probe.run({ server: faulty, clock: faultyClock });
      expect(actual, `${fault.name} made no difference`).not.toEqual(expected);
    });
  }
});
