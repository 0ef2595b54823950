import fc from 'fast-check';
import { Client } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJson } from '../../src/text/json.ts';
import { KEY, contract, startServer } from '../support/reference-server.ts';

const SEGMENTS = [
  ...['v1', 'pets', '1', '0', '-1', 'abc', '1.5', '9223372036854775808', '', ';', "'", '~', '..', '.'],
  ...['%00', '%ZZ', '%', '%2F', '%F0%9F%90%95'],
];

const path = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 4 }), fc.option(fc.string({ maxLength: 20 }), { nil: undefined }))
  .map(([underBase, segments, query]) => {
    // Mostly under the base path, where the routes are; sometimes anywhere.
    const parts = underBase ? ['v1', ...segments] : segments;
    const search = query === undefined ? '' : `?${encodeURIComponent(query).replaceAll('%3D', '=').replaceAll('%26', '&')}`;
    return `/${parts.join('/')}${search}`;
  });

const method = fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE'), fc.stringMatching(/^[A-Z]{1,10}$/));

const authorization = fc.oneof(
  fc.constant(`Bearer ${KEY}`),
  fc.constant(`bearer ${KEY}`),
  fc.constant(undefined),
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
  fc.constant('Bearer'),
  fc.constant(`Basic ${Buffer.from(`${KEY}:`).toString('base64')}`),
);

const contentType = fc.oneof(
  fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/xml', ''),
  fc.string({ maxLength: 30 }),
  fc.constant(undefined),
);

const deepJson = fc
  .integer({ min: 1, max: 20_000 })
  .chain((depth) =>
    fc.constantFrom(
      '['.repeat(depth) + ']'.repeat(depth),
      `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
      `{"name":"x","categoryId":1,"deep":${'['.repeat(depth)}12345678901234567${']'.repeat(depth)}}`,
      '['.repeat(depth),
    ),
  );

const newPetish = fc
  .record(
    {
      name: fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.jsonValue()),
      categoryId: fc.oneof(
        fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map((n) => ({ raw: n.toString() })),
        fc.double().map((n) => ({ raw: Number.isFinite(n) ? String(n) : '1' })),
        fc.jsonValue(),
      ),
      status: fc.oneof(fc.constantFrom('available', 'pending', 'sold', 'lost'), fc.jsonValue()),
    },
    { requiredKeys: [] },
  )
  .map((pet) => {
    const categoryId = pet.categoryId as unknown;
    const isRaw = typeof categoryId === 'object' && categoryId !== null && 'raw' in categoryId;
    const raw = isRaw ? (categoryId as { raw: string }).raw : undefined;
    const { categoryId: _c, ...rest } = pet;
    const text = JSON.stringify(rest);
    if (!('categoryId' in pet)) return text;
    const value = raw ?? JSON.stringify(categoryId);
    return text === '{}' ? `{"categoryId":${value}}` : `${text.slice(0, -1)},"categoryId":${value}}`;
  });

const validNewPet = fc
  .record({
    name: fc.string({ unit: 'grapheme', maxLength: 30 }),
    categoryId: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    status: fc.option(fc.constantFrom('available', 'pending', 'sold'), { nil: undefined }),
  })
  .map(({ name, categoryId, status }) => `{"name":${JSON.stringify(name)},"categoryId":${categoryId}${status === undefined ? '' : `,"status":"${status}"`}}`);

const body = fc.oneof(
  fc.constant(undefined),
  newPetish,
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  deepJson,
  fc.string({ maxLength: 200 }),
);

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

function headersOf(auth: string | undefined, type: string | undefined): Record<string, string> {
  return { ...(auth === undefined ? {} : { authorization: auth }), ...(type === undefined ? {} : { 'content-type': type }) };
}

/** Any combination of odd pieces. */
const junkRequest = fc
  .record({ method, path, auth: authorization, type: contentType, body })
  .map(({ method: m, path: p, auth, type, body: b }): FuzzRequest => ({ method: m, path: p, headers: headersOf(auth, type), body: b }));

/** Requests that should succeed, so that the fuzz also runs between real pets. */
const wellFormedRequest = fc.oneof(
  fc
    .constantFrom('/v1/pets', '/v1/pets?limit=3', '/v1/pets?status=sold', '/v1/pets/1', '/v1/pets/2')
    .map((p): FuzzRequest => ({ method: 'GET', path: p, headers: headersOf(`Bearer ${KEY}`, undefined), body: undefined })),
  fc
    .oneof(newPetish, validNewPet)
    .map((b): FuzzRequest => ({ method: 'POST', path: '/v1/pets', headers: headersOf(`Bearer ${KEY}`, 'application/json'), body: b })),
  fc
    .tuple(fc.constantFrom('PUT', 'DELETE', 'PATCH'), fc.constantFrom('/v1/pets', '/v1/pets/1'))
    .map(([m, p]): FuzzRequest => ({ method: m, path: p, headers: headersOf(`Bearer ${KEY}`, undefined), body: undefined })),
);

const fuzzRequest = fc.oneof({ arbitrary: junkRequest, weight: 3 }, { arbitrary: wellFormedRequest, weight: 1 });

describe('reference server: fuzz', () => {
  it('answers any malformed request without a 5xx, and every error with a valid Error body', async () => {
    const server = await startServer({ anonymousLimits: { perMinute: 1_000_000, perDay: 1_000_000 } });
    const client = new Client(`http://127.0.0.1:${server.port}`, { pipelining: 1 });
    onTestFinished(() => client.close());
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(fuzzRequest, async ({ method: m, path: p, headers, body: payload }) => {
        const withBody = payload !== undefined && m !== 'GET' && m !== 'HEAD' && m !== 'TRACE';
        const response = await client.request({ method: m, path: p, headers, ...(withBody ? { body: payload } : {}) });
        const text = await response.body.text();
        expect(response.statusCode).toBeLessThan(500);
        seen.add(response.statusCode);
        for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
          expect(response.headers[name], name).toMatch(/^\d+$/);
        }
        if (m === 'HEAD') return;
        const json = parseJson(text);
        if (response.statusCode >= 400) {
          expect(contract.validate('#/components/schemas/Error', json)).toEqual([]);
          expect((json as { status: number }).status).toBe(response.statusCode);
        } else {
          const schema = Array.isArray(json) ? '#/components/schemas/Pets' : '#/components/schemas/Pet';
          expect(contract.validate(schema, json)).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
    // The generators reach the interesting answers, not just one kind of refusal.
    for (const status of [200, 201, 400, 401, 404, 405]) expect(seen).toContain(status);
  });

  it('survives deeply nested JSON on every parsing path', async () => {
    const server = await startServer();
    const client = new Client(`http://127.0.0.1:${server.port}`);
    onTestFinished(() => client.close());
    for (const depth of [10_000, 30_000]) {
      const payloads = [`${'['.repeat(depth)}12345678901234567${']'.repeat(depth)}`, `{"name":${'['.repeat(depth)}${']'.repeat(depth)},"categoryId":1}`];
      for (const payload of payloads) {
        const response = await client.request({
          method: 'POST',
          path: '/v1/pets',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: payload,
        });
        const json = parseJson(await response.body.text());
        expect(response.statusCode).toBe(400);
        expect(contract.validate('#/components/schemas/Error', json)).toEqual([]);
      }
    }
  });
});
