import { describe, expect, it } from 'vitest';
import { createContract } from '../../src/contract/index.ts';
import { familyCases } from '../../src/certificate/family-counts.ts';
import { caseShortfall } from '../../src/certificate/request-counts.ts';
import { INVALID_PROPERTY_KINDS, invalidFamilies, listQueryFamilies, validNewPetFamilies } from '../../suites/support/property-families.ts';

const contract = createContract();
const options = { nameTag: 'family-counts' };

describe("a property test's input families, computed from the contract", () => {
  it("are the suites' own families, one case each from standard on, none at quick", () => {
    expect(familyCases('SCH-006', 'standard', contract)).toBe(validNewPetFamilies(contract, options).length);
    expect(familyCases('LIM-008', 'thorough', contract)).toBe(listQueryFamilies(contract).length);
    for (const [id, kind] of Object.entries(INVALID_PROPERTY_KINDS)) {
      expect(familyCases(id, 'standard', contract)).toBe(invalidFamilies(contract, kind, options).length);
      expect(familyCases(id, 'thorough', contract)).toBe(invalidFamilies(contract, kind, options).length);
      expect(familyCases(id, 'quick', contract)).toBe(0);
    }
    // The run's categories shape the values, never how many families there are.
    expect(invalidFamilies(contract, 'wrong-value', { ...options, categoryIds: [7n] }).length).toBe(familyCases('STA-006', 'standard', contract));
    expect(familyCases('STA-001', 'standard', contract)).toBeUndefined();
  });

  it("make the floor whole at standard: STA-006's 19 families and 4 generated cases", () => {
    const property = { name: 'STA-006 any NewPet with a wrong value is refused with 400 (property)' };
    const families = familyCases('STA-006', 'standard', contract) ?? 0;
    expect(families).toBe(19);
    // A forger who deletes one failing case of a genuine 23 keeps more than the generated cases alone.
    expect(caseShortfall('STA-006', property, 22, 'standard', undefined, families)).toBe(
      'it sent 22 requests, where a passed STA-006 property test at profile standard sends one or more for each of its 4 generated cases and its 19 input families',
    );
    expect(caseShortfall('STA-006', property, 22, 'standard')).toBeUndefined();
    expect(caseShortfall('STA-006', property, 23, 'standard', undefined, families)).toBeUndefined();
  });
});
