import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { isHarnessError } from '../../src/errors.ts';
import { VARIANTS, VARIANT_NAMES, type VariantName, combineVariants, mergeVariantOptions } from '../../src/reference/index.ts';
import type { ReferenceServer } from '../../src/reference/index.ts';
import { type ManualClock, ROOMY_KEY, call, contract, createPet, expectErrorBody, manualClock, startServer } from '../support/reference-server.ts';

const SMALL = 'small-key-0000000000';
const small = { key: SMALL, plan: 'enterprise', perMinute: 1, perDay: 100 } as const;

type Check = (server: ReferenceServer, clock: ManualClock) => Promise<void>;

async function lengths(server: ReferenceServer, query: string): Promise<number> {
  const answer = await call(server, 'GET', `/pets${query}`);
  expect(answer.status).toBe(200);
  return (answer.json as unknown[]).length;
}

const CHECKS: Record<VariantName, Check> = {
  'limit-clamped': async (server) => {
    for (let i = 0; i < 120; i++) await createPet(server, { name: `p${i}`, categoryId: 1 });
    expect(await lengths(server, '?limit=0')).toBe(1);
    expect(await lengths(server, '?limit=-1')).toBe(1);
    expect(await lengths(server, '?limit=101')).toBe(100);
    expect(await lengths(server, '?limit=1.5')).toBe(1);
    expect(await lengths(server, '?limit=abc')).toBe(20);
  },
  'limit-default': async (server) => {
    for (let i = 0; i < 120; i++) await createPet(server, { name: `p${i}`, categoryId: 1 });
    for (const limit of ['0', '-1', '101', '1.5', 'abc', '']) expect(await lengths(server, `?limit=${limit}`)).toBe(20);
    expect(await lengths(server, '?limit=100')).toBe(100);
  },
  'unknown-status-empty': async (server) => {
    await createPet(server, { name: 'a', categoryId: 1, status: 'sold' });
    expect(await lengths(server, '?status=lost')).toBe(0);
  },
  'default-status-available': async (server) => {
    expect((await createPet(server, { name: 'a', categoryId: 1 })).json).toMatchObject({ status: 'available' });
  },
  'extra-pet-fields': async (server, clock) => {
    const created = await createPet(server, { name: 'a', categoryId: 1 });
    expect(created.json).toMatchObject({ createdAt: new Date(clock.now()).toISOString(), tags: [] });
  },
  'custom-error-codes': async (server) => {
    const refused = await call(server, 'GET', '/pets', { key: null });
    expectErrorBody(refused, 401);
    expect(refused.json).toMatchObject({ code: 'ERR_UNAUTHORIZED' });
  },
  'undefined-fields-refused': async (server) => {
    expectErrorBody(await call(server, 'POST', '/pets', { body: '{"name":"a","categoryId":1,"colour":"brown"}' }), 400);
    expect((await call(server, 'POST', '/pets', { body: '{"name":"a","categoryId":1}' })).status).toBe(201);
  },
  'undefined-parameters-refused': async (server) => {
    const created = await createPet(server, { name: 'a', categoryId: 1 });
    const id = (created.json as { id: number }).id;
    expectErrorBody(await call(server, 'GET', '/pets?limit=1&colour=brown'), 400);
    expectErrorBody(await call(server, 'GET', `/pets/${id}?colour=brown`), 400);
    expect((await call(server, 'GET', '/pets?limit=1&status=available')).status).toBe(200);
    expect((await call(server, 'GET', '/pets?colour=brown', { key: null })).status).toBe(401);
  },
  'petid-not-found': async (server) => {
    expectErrorBody(await call(server, 'GET', '/pets/abc'), 404);
  },
  'content-type-400': async (server) => {
    expectErrorBody(await call(server, 'POST', '/pets', { body: '{}', headers: { 'content-type': 'text/plain' } }), 400);
  },
  'retry-after-http-date': async (server) => {
    await call(server, 'GET', '/pets', { key: SMALL });
    const refused = await call(server, 'GET', '/pets', { key: SMALL });
    expect(refused.status).toBe(429);
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(refused.headers['retry-after']).toBe(new Date(reset * 1000).toUTCString());
  },
  'sliding-log-window': async (server, clock) => {
    // 45 s into a clock minute: a fixed window would turn 15 s later; the log frees the slot a minute on.
    clock.advance(45_000);
    expect((await call(server, 'GET', '/pets', { key: SMALL })).status).toBe(200);
    clock.advance(20_000);
    const refused = await call(server, 'GET', '/pets', { key: SMALL });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(Number(refused.headers['x-ratelimit-reset']) * 1000).toBe(clock.now() + 40_000);
    clock.advance(40_000);
    expect((await call(server, 'GET', '/pets', { key: SMALL })).headers['x-ratelimit-remaining']).toBe('0');
  },
  'plain-429-body': async (server) => {
    await call(server, 'GET', '/pets', { key: SMALL });
    const refused = await call(server, 'GET', '/pets', { key: SMALL });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.json).toEqual({ message: 'Too Many Requests' });
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
  },
  'no-deprecation-headers': async (server) => {
    const created = await createPet(server, { name: 'a', categoryId: 1 });
    const read = await call(server, 'GET', `/pets/${(created.json as { id: number }).id}`);
    expect(read.status).toBe(200);
    expect([read.headers.deprecation, read.headers.sunset, read.headers.link]).toEqual([undefined, undefined, undefined]);
  },
  'newest-first': async (server) => {
    for (const name of ['a', 'b', 'c']) await createPet(server, { name, categoryId: 1 });
    expect(((await call(server, 'GET', '/pets?limit=2')).json as Array<{ name: string }>).map((p) => p.name)).toEqual(['c', 'b']);
  },
  'ids-above-2-53': async (server) => {
    const created = await createPet(server, { name: 'a', categoryId: 1 });
    expect(created.text).toContain(`"id":${2n ** 60n}`);
    expect((await call(server, 'GET', `/pets/${2n ** 60n}`)).status).toBe(200);
  },
  'integer-forms-refused': async (server) => {
    for (const written of ['1e3', '1000.0', '9007199254740993.0']) {
      expectErrorBody(await call(server, 'POST', '/pets', { body: `{"name":"a","categoryId":${written}}` }), 400);
    }
    expect((await call(server, 'POST', '/pets', { body: '{"name":"a","categoryId":1000}' })).status).toBe(201);
  },
  'random-ids': async (server) => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const created = await createPet(server, { name: `p${i}`, categoryId: 1 });
      const id = String((created.json as { id: bigint | number }).id);
      ids.add(id);
      expect((await call(server, 'GET', `/pets/${id}`)).status).toBe(200);
    }
    expect(ids.size).toBe(20);
    expect([...ids].some((id) => BigInt(id) > 2n ** 53n || BigInt(id) < -(2n ** 53n))).toBe(true);
  },
  'restricted-categories': async (server) => {
    expect((await createPet(server, { name: 'a', categoryId: 10 })).status).toBe(201);
    expectErrorBody(await createPet(server, { name: 'a', categoryId: 11 }), 400);
    expectErrorBody(await createPet(server, '{"name":"a","categoryId":9223372036854775807}'), 400);
  },
  'bounded-names': async (server) => {
    expect((await createPet(server, { name: '🐕'.repeat(50), categoryId: 1 })).status).toBe(201);
    expectErrorBody(await createPet(server, { name: '', categoryId: 1 }), 400);
    expectErrorBody(await createPet(server, { name: 'x'.repeat(51), categoryId: 1 }), 400);
  },
  'prefixed-base-path': async (server) => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/api/animal-store/v1`);
    expectErrorBody(await call(server, 'GET', '//v1/pets'), 404);
  },
  'prefilled-store': async (server) => {
    expect(server.pets).toBe(500);
    expect(await lengths(server, '')).toBe(20);
    // Other people's pets as a filter meets them: every status, and one in four without one; distinct
    // names; categories 1 to 9, which a server that knows only 1 to 10 (restricted-categories) holds too.
    const pets = server.store.all();
    const statuses = pets.map((pet) => pet.status ?? 'none');
    for (const status of ['available', 'pending', 'sold']) expect(statuses).toContain(status);
    expect(statuses.filter((status) => status === 'none')).toHaveLength(125);
    expect(new Set(pets.map((pet) => pet.name)).size).toBe(500);
    expect(pets.every((pet) => pet.name !== '' && Number(pet.categoryId) >= 1 && Number(pet.categoryId) <= 9)).toBe(true);
    expect(contract.validate('#/components/schemas/Pets', (await call(server, 'GET', '/pets?limit=100')).json)).toEqual([]);
  },
  'slow-responses': async (server) => {
    const started = performance.now();
    await call(server, 'GET', '/pets');
    expect(performance.now() - started).toBeGreaterThanOrEqual(24);
  },
  'connection-close': async (server) => {
    expect((await call(server, 'GET', '/pets')).headers.connection).toBe('close');
  },
  'no-ietf-ratelimit-fields': async (server) => {
    const answer = await call(server, 'GET', '/pets');
    expect(answer.headers['x-ratelimit-limit']).toBeDefined();
    expect(answer.headers.ratelimit).toBeUndefined();
    expect(answer.headers['ratelimit-policy']).toBeUndefined();
  },
  'chunked-bodies': async (server) => {
    const answer = await call(server, 'GET', '/pets');
    expect(answer.headers['transfer-encoding']).toBe('chunked');
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.json).toEqual([]);
  },
};

/** The core of the interface still holds: create, read back, list, refuse without a key. */
async function stillValid(server: ReferenceServer): Promise<void> {
  const created = await createPet(server, { name: 'check', categoryId: 3, status: 'pending' });
  expect(created.status).toBe(201);
  expect(contract.validate('#/components/schemas/Pet', created.json)).toEqual([]);
  const id = String((created.json as { id: bigint | number }).id);
  expect((await call(server, 'GET', `/pets/${id}`)).json).toEqual(created.json);
  const listed = (await call(server, 'GET', '/pets?status=pending&limit=100')).json as Array<{ id: unknown }>;
  // A list shorter than its limit is complete and must hold the new pet; a full one may not (other pets).
  if (listed.length < 100) expect(listed.some((pet) => String(pet.id) === id)).toBe(true);
  expectErrorBody(await call(server, 'GET', '/pets', { key: null }), 401);
}

describe('valid variants', () => {
  it('has a check for every variant, and names only SHOULD or ADVISORY requirements it gives up', () => {
    expect(Object.keys(CHECKS).sort()).toEqual([...VARIANT_NAMES].sort());
    const catalog = loadCatalog();
    for (const variant of VARIANTS) {
      for (const id of ('warns' in variant ? variant.warns : undefined) ?? []) expect(['SHOULD', 'ADVISORY']).toContain(catalog.get(id).level);
    }
  });

  for (const variant of VARIANTS) {
    it(`${variant.name}: ${variant.description}`, async () => {
      const clock = manualClock();
      const server = await startServer({ clock, keys: [ROOMY_KEY, small], ...variant.options });
      await CHECKS[variant.name](server, clock);
      await stillValid(server);
    });
  }

  it('combines variants, and refuses unknown or conflicting ones', async () => {
    const options = combineVariants('newest-first', 'ids-above-2-53', 'extra-pet-fields', 'chunked-bodies');
    expect(options).toMatchObject({ listOrder: 'newest-first', idStart: 2n ** 60n, extraPetFields: true, chunked: true });
    await stillValid(await startServer(options));
    const refused = (run: () => unknown) => expect(run).toThrow(expect.toSatisfy((e) => isHarnessError(e) && e.code === 'ERR_CONFIG'));
    refused(() => combineVariants('no-such-variant' as VariantName));
    refused(() =>
      mergeVariantOptions([
        { name: 'a', description: 'a', options: { listOrder: 'newest-first' } },
        { name: 'b', description: 'b', options: { listOrder: 'oldest-first' } },
      ]),
    );
  });

  it('runs with every variant at once except the category restriction', async () => {
    // limit-default and limit-clamped are two readings of one option: the clamp stands for both.
    const names = VARIANT_NAMES.filter((name) => name !== 'restricted-categories' && name !== 'slow-responses' && name !== 'limit-default');
    await stillValid(await startServer(combineVariants(...names)));
  });
});
