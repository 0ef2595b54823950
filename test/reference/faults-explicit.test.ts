import { describe, expect, it } from 'vitest';
import { call, createPet, expectErrorBody, manualClock, startServer } from '../support/reference-server.ts';

const SMALL = 'small-key-0000000000';
const smallKeys = [{ key: SMALL, plan: 'enterprise', perMinute: 4, perDay: 100 }] as const;

/** One precise look per group at what a fault does, beyond "it differs" (faults.test.ts). */
describe('faults, as described', () => {
  it('status: 201 becomes 200, validation 400 becomes 422, odd input gets 500', async () => {
    const server = await startServer({ faults: ['create-returns-200', 'invalid-body-422', 'malformed-json-500', 'unicode-name-500'] });
    expect((await createPet(server, { name: 'a', categoryId: 1 })).status).toBe(200);
    expectErrorBody(await createPet(server, { name: 'a', categoryId: 'x' }), 422);
    expectErrorBody(await createPet(server, '{'), 500);
    expectErrorBody(await createPet(server, { name: 'Ärger', categoryId: 1 }), 500);
    expect(server.pets).toBe(2);
  });

  it('schema: ids as strings, Pets wrapped in data', async () => {
    const server = await startServer({ faults: ['id-as-string', 'pet-wrapped-in-data'] });
    expect((await createPet(server, { name: 'a', categoryId: 1 })).json).toEqual({ data: { id: '1', name: 'a', categoryId: 1 } });
    expect((await call(server, 'GET', '/pets')).json).toEqual([{ id: '1', name: 'a', categoryId: 1 }]);
  });

  it('errors: the status field stays 400 whatever the HTTP status', async () => {
    const server = await startServer({ faults: ['error-status-mismatch'] });
    const answer = await call(server, 'GET', '/pets/9');
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ status: 400 });
  });

  it('validation and int64: 2^63 wraps to -2^63, categoryId goes through a double', async () => {
    const server = await startServer({ faults: ['categoryid-overflow-wrapped', 'category-id-through-double'] });
    expect((await createPet(server, '{"name":"a","categoryId":9223372036854775808}')).text).toContain('"categoryId":-9223372036854776000');
    expect((await createPet(server, '{"name":"a","categoryId":9007199254740993}')).text).toContain('"categoryId":9007199254740992');
  });

  it('store: ids above 2^53 are shown rounded, so the shown id finds nothing', async () => {
    const server = await startServer({ faults: ['large-id-rounded'] });
    const created = await createPet(server, { name: 'a', categoryId: 1 });
    expect(created.text).toContain('"id":9007199254740992');
    expect(created.headers.location).toBe('/v1/pets/9007199254740993');
    expectErrorBody(await call(server, 'GET', '/pets/9007199254740992'), 404);
  });

  it('store: a lost write is answered 201 but never stored', async () => {
    const server = await startServer({ faults: ['lost-write'] });
    expect((await createPet(server, { name: 'a', categoryId: 1 })).status).toBe(201);
    expect(server.pets).toBe(0);
    expect((await call(server, 'GET', '/pets')).json).toEqual([]);
  });

  it('limits: the default list holds 21 pets', async () => {
    const server = await startServer({ faults: ['limit-off-by-one'], seedPets: 30 });
    expect((await call(server, 'GET', '/pets')).json).toHaveLength(21);
  });

  it('auth: errors leak before 401, yet nothing is stored or shown without a key', async () => {
    const server = await startServer({ faults: ['validate-before-auth', 'not-found-before-auth'] });
    await createPet(server, { name: 'a', categoryId: 1 });
    expectErrorBody(await createPet(server, { name: 'b' }, { key: null }), 400);
    expectErrorBody(await createPet(server, { name: 'b', categoryId: 1 }, { key: null }), 401);
    expectErrorBody(await call(server, 'GET', '/pets/9', { key: null }), 404);
    expectErrorBody(await call(server, 'GET', '/pets/1', { key: null }), 401);
    expect(server.pets).toBe(1);
  });

  it('rate limit: 429 while Remaining is above 0, and no recovery after the window', async () => {
    const clock = manualClock(Date.UTC(2026, 0, 1, 12, 0, 10));
    const half = await startServer({ clock, keys: smallKeys, faults: ['ratelimit-429-at-half'] });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(half, 'GET', '/pets', { key: SMALL })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const stuck = await startServer({ clock, keys: smallKeys, faults: ['ratelimit-no-recovery'] });
    for (let i = 0; i < 5; i++) await call(stuck, 'GET', '/pets', { key: SMALL });
    clock.advance(120_000);
    const after = await call(stuck, 'GET', '/pets', { key: SMALL });
    expect(after.status).toBe(429);
    expect(after.headers['x-ratelimit-remaining']).toBe('4');
  });

  it('deprecation: getPet removed now, Sunset names another date', async () => {
    const server = await startServer({ faults: ['get-removed-early-410', 'sunset-wrong-date'] });
    await createPet(server, { name: 'a', categoryId: 1 });
    const answer = await call(server, 'GET', '/pets/1');
    expectErrorBody(answer, 410);
    expect(answer.headers.sunset).toBe('Sat, 05 Dec 2026 00:00:00 GMT');
  });
});
