import { describe, expect, it } from 'vitest';
import { wwwAuthenticateOn401 } from '../../src/checks/auth-checks.ts';
import { deprecationOnlyWhereDeprecated, deprecationStructuredDate, sunsetDate } from '../../src/checks/deprecation-checks.ts';
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

  it.each(['Thu, 05 Dec 2030 00:00:00 GMT', 'Thu, 05 Dec 2030 23:59:59 GMT', 'Thursday, 05-Dec-30 00:00:00 GMT', 'Thu Dec  5 00:00:00 2030'])(
    'passes the HTTP-date %j (any of the three forms RFC 9110 has recipients parse)',
    (value) => {
      expect(run(value)).toBeUndefined();
    },
  );

  it('passes when Sunset is absent (its absence is DEP-004, a SHOULD)', () => {
    expect(run(undefined)).toBeUndefined();
  });

  it('fails another day and says which', () => {
    expect(run('Fri, 06 Dec 2030 00:00:00 GMT')).toEqual({
      expected: 'Sunset as an HTTP-date (RFC 8594 §3) naming 2030-12-05 (any time that day, GMT)',
      actual: 'Sunset "Fri, 06 Dec 2030 00:00:00 GMT", which names 2030-12-06',
    });
    expect(run('Wed, 04 Dec 2030 23:00:00 GMT')?.actual).toMatch(/names 2030-12-04/);
  });

  it.each(['2030-12-05', '2030-12-05T00:00:00Z', '2030-12-05T12:00:00+01:00', 'soon', '1922659200', 'Thu, 05 Dec 2030 00:00:00 UTC'])(
    'fails %j, which a client reading an HTTP-date does not parse',
    (value) => {
      expect(run(value)?.actual).toBe(`Sunset ${JSON.stringify(value)}, which is not an HTTP-date`);
    },
  );

  it('judges the syntax on any operation, the day only where a removal is announced', () => {
    expect(run('Sat, 01 Jan 2050 00:00:00 GMT', 'listPets')).toBeUndefined();
    expect(run('2030-12-05', 'listPets')).toEqual({
      expected: 'Sunset as an HTTP-date (RFC 8594 §3)',
      actual: 'Sunset "2030-12-05", which is not an HTTP-date',
    });
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

  it('judges the syntax on operations that are not deprecated too (sending it there is DEP-006)', () => {
    expect(run({ deprecation: 'true' }, 'listPets')).toBe('Deprecation "true"');
    expect(run({ deprecation: '@1735689600' }, 'listPets')).toBeUndefined();
  });
});

describe('deprecation-only-where-deprecated (DEP-006)', () => {
  const run = (changes: Record<string, string | undefined>, operationId = 'listPets') =>
    deprecationOnlyWhereDeprecated.run(ctx({ operationId, headers: headers(changes) }))?.actual;

  it('fails Deprecation, Sunset or a deprecating Link on listPets and createPet', () => {
    expect(run({ deprecation: '@1735689600' })).toBe('listPets answered with Deprecation "@1735689600"');
    expect(run({ sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' }, 'createPet')).toBe('createPet answered with Sunset "Thu, 05 Dec 2030 00:00:00 GMT"');
    for (const rel of ['successor-version', 'deprecation', 'sunset', '"next successor-version"']) {
      expect(run({ link: `</v2/pets>; rel=${rel}` })).toMatch(/^listPets answered with Link/);
    }
  });

  it('passes a Link of another relation, and the deprecated getPet', () => {
    expect(run({ link: '</v1/pets?page=2>; rel="next"' })).toBeUndefined();
    expect(run({})).toBeUndefined();
    expect(run({ deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' }, 'getPet')).toBeUndefined();
  });
});
