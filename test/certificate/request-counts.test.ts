import { describe, expect, it } from 'vitest';
import { GENERATED_CASES, REQUESTS_OF_EVERY_PASS, caseShortfall, requestShortfall } from '../../src/certificate/request-counts.ts';

describe('the requests every pass of a fixed procedure sends', () => {
  it('a pass that sent fewer is refused on a whole-catalog run, naming the count', () => {
    expect(REQUESTS_OF_EVERY_PASS['STA-014']).toBe(3);
    expect(requestShortfall('STA-014', 2, {})).toBe('it sent 2 requests, where every passed STA-014 test sends at least 3');
    expect(requestShortfall('STA-014', 1, { only: [] })).toBe('it sent 1 request, where every passed STA-014 test sends at least 3');
  });

  it('as many or more, a requirement not listed, or a run with --only: no shortfall', () => {
    expect(requestShortfall('STA-014', 3, {})).toBeUndefined();
    expect(requestShortfall('STA-014', 40, {})).toBeUndefined();
    expect(requestShortfall('CON-002', 1, {})).toBeUndefined();
    expect(requestShortfall('CON-003', 3, { only: ['CON-003'] })).toBeUndefined();
    expect(requestShortfall('STA-014', 1, {}, {})).toBeUndefined();
  });

  it('the floors read from the code where the mode or the store changes the count: the least any pass sends', () => {
    // Read-only STA-009 sends 4 (6 when it may write), ERR-002 2 (3), LIM-004 7 on a full store (8 when filled).
    expect(REQUESTS_OF_EVERY_PASS).toMatchObject({ 'STA-009': 4, 'ERR-002': 2, 'LIM-001': 2, 'LIM-004': 7 });
    expect(requestShortfall('LIM-004', 6, {})).toBe('it sent 6 requests, where every passed LIM-004 test sends at least 7');
    expect(requestShortfall('STA-009', 3, {})).toMatch(/at least 4$/);
    expect(requestShortfall('LIM-004', 7, {})).toBeUndefined();
  });

  it("a property test's generated cases at the run's profile: one request each at least, with --only too", () => {
    const property = { name: 'STA-005 any NewPet missing a required field is refused with 400 (property)' };
    expect(GENERATED_CASES['STA-005']).toEqual({ quick: 0, standard: 3, thorough: 150 });
    expect(caseShortfall('STA-005', property, 152, 'thorough')).toBeUndefined();
    expect(caseShortfall('STA-005', property, 149, 'thorough')).toBe(
      'it sent 149 requests, where a passed STA-005 property test at profile thorough sends one or more for each of its 150 generated cases',
    );
    expect(caseShortfall('SCH-006', { name: 'SCH-006 renamed', property: { numRuns: 16 } }, 9, 'standard')).toMatch(/its 10 generated cases$/);
    expect(caseShortfall('SCH-006', property, 10, 'standard')).toBeUndefined();
    // The requirement's example tests, no profile known, or no table: nothing to hold it to.
    expect(caseShortfall('STA-005', { name: 'STA-005 createPet answers 400 when name is missing' }, 1, 'thorough')).toBeUndefined();
    expect(caseShortfall('STA-005', property, 1, undefined)).toBeUndefined();
    expect(caseShortfall('STA-005', property, 1, 'thorough', {})).toBeUndefined();
  });
});
