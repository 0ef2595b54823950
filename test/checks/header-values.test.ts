import { describe, expect, it } from 'vitest';
import { mediaType, parseHttpDate } from '../../src/text/header-values.ts';

const EPOCH = Date.UTC(1994, 10, 6, 8, 49, 37);

describe('parseHttpDate (RFC 9110 §5.6.7)', () => {
  it('reads the three forms recipients must accept', () => {
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(EPOCH);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(2025, 0, 1))).toBe(EPOCH);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(EPOCH);
  });

  it('reads a two-digit year more than 50 years ahead as the past century', () => {
    expect(parseHttpDate('Thursday, 05-Dec-30 00:00:00 GMT', Date.UTC(2025, 0, 1))).toBe(Date.UTC(2030, 11, 5));
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(2025, 0, 1))).toBe(EPOCH);
  });

  it.each([
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'sun, 06 Nov 1994 08:49:37 GMT',
    'Sun, 31 Feb 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 24:00:00 GMT',
    '1994-11-06T08:49:37Z',
    '784111777',
    '',
  ])('rejects %j', (value) => {
    expect(parseHttpDate(value)).toBeUndefined();
  });
});

describe('mediaType', () => {
  it('strips parameters and lower-cases', () => {
    expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaType(undefined)).toBeUndefined();
  });
});
