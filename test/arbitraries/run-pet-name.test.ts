import { describe, expect, it } from 'vitest';
import { REALISTIC_PET_NAMES, petNameLabel, runPetName } from '../../src/arbitraries/pet-names.ts';
import { COMMON_USER_AGENTS, commonUserAgent } from '../../src/client/user-agent.ts';

describe("a run's pet names and User-Agent carry no mark of the suite", () => {
  it('a realistic name and a tag of the run: unique per scope and count, the same for the same inputs, never "conformance"', () => {
    const names = new Set<string>();
    for (let count = 1; count <= 200; count += 1) names.add(runPetName('a1b2c3d4', 'CON-004\ntitle', count));
    expect(names.size).toBe(200);
    for (const name of names) {
      expect(REALISTIC_PET_NAMES).toContain(name.split(' ')[0]);
      expect(name).toMatch(/^\S+ [0-9a-f]{6}$/);
      expect(name.toLowerCase()).not.toContain('conformance');
    }
    expect(runPetName('a1b2c3d4', 's', 1)).toBe(runPetName('a1b2c3d4', 's', 1));
    expect(runPetName('a1b2c3d4', 's', 1)).not.toBe(runPetName('ffffffff', 's', 1));
    expect(runPetName('a1b2c3d4', 's', 1, 'Łajka 猫')).toMatch(/ Łajka 猫$/);
  });

  it('a label that is only a requirement id is dropped; what follows one is kept', () => {
    expect([petNameLabel('CON-004'), petNameLabel('LIM-007 case'), petNameLabel('SCH-005 Łajka'), petNameLabel('odd query')]).toEqual([
      '',
      'case',
      'Łajka',
      'odd query',
    ]);
  });

  it('the User-Agent is a common client’s, whichever byte picks it', () => {
    for (let pick = 0; pick < 256; pick += 1) expect(COMMON_USER_AGENTS).toContain(commonUserAgent(pick));
    expect(COMMON_USER_AGENTS.some((agent) => agent.includes('conformance'))).toBe(false);
  });
});
