import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHECKS, runChecks, type Check } from '../../src/checks/index.ts';
import { ctx, ERROR_BODY, headers } from './context.ts';

const catalog = parse(readFileSync(fileURLToPath(new URL('../../spec/requirements.yaml', import.meta.url)), 'utf8')) as {
  requirements: Array<{ id: string }>;
};

describe('the check registry', () => {
  it('names a known requirement in every check, each name+id once', () => {
    const ids = new Set(catalog.requirements.map((r) => r.id));
    for (const check of CHECKS) expect(ids, check.name).toContain(check.requirementId);
    const keys = CHECKS.map((c) => `${c.name} ${c.requirementId}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('finds nothing on well-formed responses of every operation', () => {
    const pet = { id: 1, name: 'Rex', categoryId: 2 };
    const www = headers({ 'www-authenticate': 'Bearer' });
    const sunset = headers({ sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', 'retry-after': '5' });
    const fine = [
      ctx({ json: [pet] }),
      ctx({ operationId: 'createPet', method: 'POST', status: 201, json: pet }),
      ctx({ operationId: 'getPet', json: pet, headers: sunset }),
      ctx({ operationId: 'getPet', status: 404, json: ERROR_BODY(404), headers: sunset }),
      ctx({ operationId: 'createPet', status: 401, json: ERROR_BODY(401), headers: www }),
      ctx({ status: 429, json: ERROR_BODY(429), headers: headers({ 'retry-after': '5' }) }),
    ];
    for (const context of fine) expect(runChecks(context)).toEqual([]);
  });

  it('turns violations into findings that point at the exchange', () => {
    const findings = runChecks(ctx({ status: 503, text: 'down', body: undefined, isJson: false, headers: { 'content-type': 'text/plain' }, exchangeSeq: 7 }));
    expect(findings.map((f) => f.check)).toEqual(['no-server-error', 'documented-status', 'json-content-type', 'rate-limit-headers-present']);
    expect(findings.every((f) => f.exchangeSeq === 7)).toBe(true);
    expect(findings[0]).toEqual({ requirementId: 'STA-008', check: 'no-server-error', expected: expect.any(String), actual: 'status 503', exchangeSeq: 7 });
  });

  it('turns a check that throws into ERR_INTERNAL, not a finding against the target', () => {
    const broken: Check = {
      name: 'broken',
      requirementId: 'STA-008',
      run: () => {
        throw new Error('bug');
      },
    };
    expect(() => runChecks(ctx(), [broken])).toThrow(expect.objectContaining({ code: 'ERR_INTERNAL' }));
  });

  it('never throws on hostile responses', () => {
    const hostile = [
      ctx({ body: null, text: 'null' }),
      ctx({ status: 400, body: null, text: 'null' }),
      ctx({ status: 429, body: 'x', text: '"x"', headers: { 'retry-after': '\u0000', 'x-ratelimit-reset': '1e400' } }),
      ctx({ operationId: 'getPet', status: 999, body: { status: { toString: null } }, text: '{}', headers: { sunset: '\ud800' } }),
      ctx({ operationId: 'nope', status: 0, body: undefined, text: '', isJson: false, headers: {} }),
    ];
    for (const context of hostile) expect(() => runChecks(context)).not.toThrow();
  });
});
