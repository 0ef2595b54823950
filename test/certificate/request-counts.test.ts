import { describe, expect, it } from 'vitest';
import { REQUESTS_OF_EVERY_PASS, requestShortfall } from '../../src/certificate/request-counts.ts';

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
});
