import { describe, expect, it } from 'vitest';
import { frontHint, type ServerSignature } from '../../src/report/front-signature.ts';
import { exchange } from '../support/report-builders.ts';

const signed: ServerSignature = { rateLimited: true, server: 'animal-store' };
const answer = (status: number, headers: Record<string, string>, body = '') => exchange(1, { response: { status, headers, body } });
const ERROR = '{"code":"too_large","message":"header too large","status":431}';

describe('an answer without the server signature is blamed on something in front, with how to tell', () => {
  it('a bare 431 (no rate-limit headers, no Error body): probably from in front, and the curl line to tell', () => {
    const hint = frontHint(answer(431, { connection: 'close' }), signed);
    expect(hint).toMatch(
      /^probably answered by something in front of the server .*no X-RateLimit-\* headers.*not the interface's Error.*To tell, send the curl line to the server directly/,
    );
  });

  it('a Via and another Server on an answer without rate-limit headers', () => {
    const hint = frontHint(answer(502, { via: '1.1 gateway', server: 'envoy', 'content-type': 'application/json' }, ERROR), signed);
    expect(hint).toMatch(/no X-RateLimit-\* headers.*a Via header.*Server: envoy where the other answers say animal-store/);
  });

  it.each([
    ['the server itself, headers missing on errors (one sign)', answer(431, { server: 'animal-store' }, ERROR)],
    ['a signed answer with a wrong body', answer(500, { 'x-ratelimit-limit': '60', server: 'animal-store' }, 'oops')],
    ['no signature known: a run whose answers never carried the headers', answer(431, {})],
  ])('%s: no hint', (title, given) => {
    const signature = title.startsWith('no signature') ? { rateLimited: false, server: undefined } : signed;
    expect(frontHint(given, signature)).toBeUndefined();
  });
});
