import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { isHarnessError } from '../../src/errors.ts';
import { FAULTS, FAULT_NAMES, type FaultName, startReferenceServer } from '../../src/reference/index.ts';
import { ACCESS_PROBES } from './fault-probes-access.ts';
import { FAMILY_PROBES } from './fault-probes-families.ts';
import { HTTP_PROBES } from './fault-probes-http.ts';
import { call, contract, manualClock, startServer } from '../support/reference-server.ts';

const PROBES = { ...HTTP_PROBES, ...ACCESS_PROBES, ...FAMILY_PROBES };

describe('named faults', () => {
  const catalog = loadCatalog();

  it('holds at least 60 faults with unique names, a description and hooks', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(FAULT_NAMES).size).toBe(FAULTS.length);
    for (const fault of FAULTS) {
      expect(fault.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(fault.description.length, fault.name).toBeGreaterThan(10);
      expect(Object.keys(fault.hooks()).length, fault.name).toBeGreaterThan(0);
    }
  });

  it('names only requirements of the catalog, only SHOULD ones for strictOnly faults, only ADVISORY ones for advisoryOnly faults', () => {
    for (const fault of FAULTS) {
      expect(fault.detectedBy.length, fault.name).toBeGreaterThan(0);
      const levels = fault.detectedBy.map((id) => {
        expect(catalog.has(id), `${fault.name}: ${id}`).toBe(true);
        expect(catalog.get(id).coverage, `${fault.name}: ${id}`).toBe('tested');
        return catalog.get(id).level;
      });
      if ('advisoryOnly' in fault && fault.advisoryOnly)
        expect(
          levels.every((l) => l === 'ADVISORY'),
          fault.name,
        ).toBe(true);
      else if ('strictOnly' in fault && fault.strictOnly)
        expect(
          levels.every((l) => l === 'SHOULD'),
          fault.name,
        ).toBe(true);
      else expect(levels, fault.name).toContain('MUST');
    }
  });

  it('has a named fault for every tested requirement, so each can be shown to fail', () => {
    const detected = new Set(FAULTS.flatMap((fault) => fault.detectedBy));
    const untried = catalog.requirements.filter((r) => r.coverage === 'tested' && !detected.has(r.id)).map((r) => r.id);
    expect(untried).toEqual([]);
  });

  it('refuses an unknown fault name', async () => {
    const start = startReferenceServer({ faults: ['no-such-fault' as FaultName], contract });
    await expect(start).rejects.toSatisfy((error) => isHarnessError(error) && error.code === 'ERR_CONFIG');
  });

  it('has a behaviour probe for every fault', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...FAULT_NAMES].sort());
  });
});

describe('every fault changes what the server does', () => {
  for (const fault of FAULTS) {
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

describe('fault composition', () => {
  it('chains several faults on the same seam', async () => {
    const server = await startServer({ faults: ['ratelimit-reset-in-ms', 'ratelimit-remaining-above-limit', 'www-authenticate-missing'] });
    const answer = await call(server, 'GET', '/pets', { key: null });
    expect(Number(answer.headers['x-ratelimit-reset'])).toBeGreaterThan(1e12);
    expect(Number(answer.headers['x-ratelimit-remaining'])).toBeGreaterThan(Number(answer.headers['x-ratelimit-limit']));
    expect(answer.headers['www-authenticate']).toBeUndefined();
    expect(server.faults).toEqual(['ratelimit-reset-in-ms', 'ratelimit-remaining-above-limit', 'www-authenticate-missing']);
  });
});
