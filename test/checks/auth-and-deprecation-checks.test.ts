import { describe, expect, it } from 'vitest';
import { wwwAuthenticateOn401 } from '../../src/checks/auth-checks.ts';
import { deprecationStructuredDate, sunsetDate } from '../../src/checks/deprecation-checks.ts';
import { ctx, headers } from './context.ts';

describe('www-authenticate-on-401 (AUTH-009)', () => {
  const run = (value: string | undefined, status = 401) => wwwAuthenticateOn401.run(ctx({ status, headers: headers({ 'www-authenticate': value }) }));

  it.each([
    'Bearer',
    'bearer',
    'BEARER realm="pets"',
    'Bearer realm="api", error="invalid_token"',
    'Basic realm="x", Bearer',
    'Basic realm="x",Bearer realm="y"',
  ])('passes %j', (value) => {
    expect(run(value)).toBeUndefined();
  });

  it.each(['Basic realm="pets"', 'Bearerish', 'Token', 'Digest realm="x", nonce="bearer1"'])('fails %j', (value) => {
    expect(run(value)?.actual).toBe(`WWW-Authenticate ${JSON.stringify(value)}`);
  });

  it('fails a 401 without the header', () => {
    expect(run(undefined)?.actual).toBe('no WWW-Authenticate header');
  });

  it('applies only to 401', () => {
    expect(run(undefined, 403)).toBeUndefined();
  });
});

describe('sunset-date (DEP-002)', () => {
  const run = (value: string | undefined, operationId = 'getPet') => sunsetDate.run(ctx({ operationId, headers: headers({ sunset: value }) }));

  it.each(['Thu, 05 Dec 2030 00:00:00 GMT', 'Thu, 05 Dec 2030 23:59:59 GMT', '2030-12-05', '2030-12-05T12:00:00Z', 'Thursday, 05-Dec-30 00:00:00 GMT'])(
    'passes %j',
    (value) => {
      expect(run(value)).toBeUndefined();
    },
  );

  it('passes when Sunset is absent (its absence is DEP-004, a SHOULD)', () => {
    expect(run(undefined)).toBeUndefined();
  });

  it('fails another day and says which', () => {
    expect(run('Fri, 06 Dec 2030 00:00:00 GMT')).toEqual({
      expected: 'Sunset naming 2030-12-05 (any time that day, UTC)',
      actual: 'Sunset "Fri, 06 Dec 2030 00:00:00 GMT", which names 2030-12-06',
    });
    expect(run('2030-12-04T23:00:00Z')?.actual).toMatch(/names 2030-12-04/);
    expect(run('2030-12-05T00:30:00+01:00')?.actual).toMatch(/names 2030-12-04/);
  });

  it('fails a value that is not a date', () => {
    expect(run('soon')?.actual).toBe('Sunset "soon", which is not a date');
    expect(run('1922659200')?.actual).toMatch(/not a date/);
  });

  it('applies only to operations with an announced removal', () => {
    expect(run('soon', 'listPets')).toBeUndefined();
  });
});

describe('deprecation-structured-date (DEP-007)', () => {
  const run = (changes: Record<string, string | undefined>, operationId = 'getPet') =>
    deprecationStructuredDate.run(ctx({ operationId, headers: headers(changes) }))?.actual;

  it('passes @<unix seconds>, and no header at all (DEP-003 judges that)', () => {
    expect(run({ deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' })).toBeUndefined();
    expect(run({})).toBeUndefined();
  });

  it.each(['true', 'Wed, 01 Jan 2025 00:00:00 GMT', '2025-01-01', '@1.5', '1735689600'])('fails Deprecation %j', (value) => {
    expect(run({ deprecation: value })).toBe(`Deprecation ${JSON.stringify(value)}`);
  });

  it('fails a Sunset earlier than the deprecation', () => {
    expect(run({ deprecation: '@1956441600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' })).toMatch(/Deprecation "@1956441600" \(2031-12-31\) comes after Sunset/);
  });

  it('leaves operations that are not deprecated to DEP-006', () => {
    expect(run({ deprecation: 'true' }, 'listPets')).toBeUndefined();
  });
});
