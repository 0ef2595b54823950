import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SUNSET_AT_MS } from '../../src/reference/index.ts';
import { call, contract, createPet, expectErrorBody, expectRateHeaders, manualClock, startServer } from '../support/reference-server.ts';

describe('reference server: operations', () => {
  it('listens on 127.0.0.1 with a /v1 base URL and starts empty', async () => {
    const server = await startServer();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/v1`);
    expect(server.pets).toBe(0);
    const list = await call(server, 'GET', '/pets');
    expect(list.status).toBe(200);
    expect(list.json).toEqual([]);
  });

  it('creates a pet: 201, the Pet as stored, Location, and it can be read back', async () => {
    const server = await startServer();
    const created = await createPet(server, { name: 'Rex', categoryId: 7, status: 'pending' });
    expect(created.status).toBe(201);
    expect(contract.validate('#/components/schemas/Pet', created.json)).toEqual([]);
    const pet = created.json as { id: number };
    expect(created.json).toEqual({ id: pet.id, name: 'Rex', categoryId: 7, status: 'pending' });
    expect(created.headers.location).toBe(`/v1/pets/${pet.id}`);
    const read = await call(server, 'GET', `/pets/${pet.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
    expect(server.pets).toBe(1);
  });

  it('omits status when none was given', async () => {
    const server = await startServer();
    const created = await createPet(server, { name: 'Tom', categoryId: 1 });
    expect(created.status).toBe(201);
    expect(created.json).not.toHaveProperty('status');
  });

  it('answers every response with application/json and the rate-limit headers', async () => {
    const server = await startServer();
    const answers = [
      await call(server, 'GET', '/pets'),
      await createPet(server, { name: 'a', categoryId: 1 }),
      await call(server, 'GET', '/pets/1'),
      await call(server, 'GET', '/pets/999'),
      await call(server, 'DELETE', '/pets'),
      await call(server, 'GET', '/nowhere'),
    ];
    for (const answer of answers) {
      expect(answer.headers['content-type']).toBe('application/json');
      expectRateHeaders(answer);
    }
  });

  it('answers unknown paths 404 and wrong methods 405 with Allow, with the Error body', async () => {
    const server = await startServer();
    for (const path of ['/nowhere', '/pets/', '/pets/1/toys', '/store/orders', '', '//', '//pets', '//v2/pets']) {
      expectErrorBody(await call(server, 'GET', path), 404);
    }
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const collection = await call(server, method, '/pets');
      expectErrorBody(collection, 405);
      expect(collection.headers.allow).toBe('GET, POST');
      const item = await call(server, method, '/pets/1');
      expectErrorBody(item, 405);
      expect(item.headers.allow).toBe('GET');
    }
    const head = await call(server, 'HEAD', '/pets');
    expect(head.status).toBe(405);
    expect(head.text).toBe('');
  });

  it('keeps servers independent: own store, own keys', async () => {
    const one = await startServer();
    const two = await startServer({ keys: [{ key: 'other-key-000000', plan: 'free' }] });
    await createPet(one, { name: 'only here', categoryId: 1 });
    expect((await call(two, 'GET', '/pets', { key: 'other-key-000000' })).json).toEqual([]);
    expect((await call(two, 'GET', '/pets')).status).toBe(401);
    expect(one.pets).toBe(1);
    expect(two.pets).toBe(0);
  });

  it('generates one demo key per plan when none are given', async () => {
    const server = await startServer({ keys: undefined });
    expect(server.generatedKeys).toBe(true);
    expect(server.keys.map((k) => k.plan)).toEqual(['free', 'pro', 'business', 'enterprise']);
    for (const { key } of server.keys) expect((await call(server, 'GET', '/pets', { key })).status).toBe(200);
  });

  it('serves under another base path', async () => {
    const server = await startServer({ basePath: '/api/animal-store/v1' });
    expect(server.url).toMatch(/\/api\/animal-store\/v1$/);
    expect((await call(server, 'GET', '/pets')).status).toBe(200);
    expectErrorBody(await call(server, 'GET', '//v1/pets'), 404);
  });

  it('close() also closes idle keep-alive connections', async () => {
    const server = await startServer();
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /v1/pets HTTP/1.1\r\nhost: x\r\nauthorization: Bearer test-key-0123456789abcdef\r\n\r\n`);
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await server.close();
    await closed;
  });
});

describe('reference server: getPet deprecation', () => {
  it('sends Deprecation, Sunset and Link on 200, 400 and 404', async () => {
    const server = await startServer();
    await createPet(server, { name: 'a', categoryId: 1 });
    for (const path of ['/pets/1', '/pets/2', '/pets/abc']) {
      const answer = await call(server, 'GET', path);
      expect(answer.headers.deprecation).toBe('@1735689600');
      expect(answer.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(answer.headers.link).toBe('</v1/pets>; rel="successor-version"');
    }
    expect((await call(server, 'GET', '/pets')).headers.deprecation).toBeUndefined();
  });

  it('is available until the sunset and answers 410 Gone from that instant', async () => {
    const clock = manualClock(SUNSET_AT_MS - 1);
    const server = await startServer({ clock });
    await createPet(server, { name: 'a', categoryId: 1 });
    expect((await call(server, 'GET', '/pets/1')).status).toBe(200);
    clock.set(SUNSET_AT_MS);
    expectErrorBody(await call(server, 'GET', '/pets/1'), 410);
    expect((await call(server, 'GET', '/pets')).status).toBe(200);
  });
});

describe('reference server: malformed HTTP', () => {
  it('answers a request node cannot parse with an Error body and rate-limit headers', async () => {
    const server = await startServer();
    const socket = connect(server.port, '127.0.0.1');
    let raw = '';
    socket.on('data', (chunk) => (raw += String(chunk)));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /v1/pets HTTP/1.1\r\nhost: x\r\nbad header\r\n\r\n');
    await closed;
    const [head = '', body = ''] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1.1 400 /);
    expect(head).toMatch(/x-ratelimit-remaining: \d+/);
    expect(JSON.parse(body)).toMatchObject({ code: 'bad_request', status: 400 });
  });
});
