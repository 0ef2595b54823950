import { describe, expect, it } from 'vitest';
import { call, createPet, expectErrorBody, startServer } from '../support/reference-server.ts';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

describe('reference server: createPet validation', () => {
  it('refuses bodies that are not a NewPet with 400 and a message naming the field', async () => {
    const server = await startServer();
    const cases: Array<[string, RegExp]> = [
      ['{"categoryId":1}', /name/],
      ['{"name":"a"}', /categoryId/],
      ['{}', /name/],
      ['{"name":"a","categoryId":"1"}', /^categoryId must be integer/],
      ['{"name":"a","categoryId":1.5}', /^categoryId must be integer/],
      ['{"name":"a","categoryId":null}', /^categoryId/],
      ['{"name":1,"categoryId":1}', /^name must be string/],
      ['{"name":null,"categoryId":1}', /^name/],
      ['{"name":"a","categoryId":1,"status":"lost"}', /^status must be one of available, pending, sold/],
      ['{"name":"a","categoryId":1,"status":null}', /^status/],
      ['{"name":"a","categoryId":1e400}', /^categoryId/],
      ['null', /body must be object/],
      ['[]', /body must be object/],
      ['[{"name":"a","categoryId":1}]', /body must be object/],
      ['"text"', /body must be object/],
      ['42', /body must be object/],
    ];
    for (const [body, message] of cases) {
      const answer = await createPet(server, body);
      expectErrorBody(answer, 400);
      expect((answer.json as { message: string }).message, body).toMatch(message);
    }
    expect(server.pets).toBe(0);
  });

  it('refuses malformed JSON, an empty body and a body that is not UTF-8 with 400', async () => {
    const server = await startServer();
    for (const body of ['{', '{"name":"a",}', 'nope', '{"name":"a" "categoryId":1}', ' ', '\u0000']) {
      expectErrorBody(await createPet(server, body), 400);
    }
    expectErrorBody(await call(server, 'POST', '/pets', { body: '' }), 400);
    expectErrorBody(await call(server, 'POST', '/pets', { headers: { 'content-type': 'application/json' } }), 400);
    const latin1 = Buffer.from('{"name":"caf\xe9","categoryId":1}', 'latin1');
    expectErrorBody(await call(server, 'POST', '/pets', { body: latin1 }), 400);
  });

  it('accepts application/json with parameters in any case, and answers other media types 415', async () => {
    const server = await startServer();
    const body = '{"name":"a","categoryId":1}';
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8']) {
      expect((await call(server, 'POST', '/pets', { body, headers: { 'content-type': type } })).status, type).toBe(201);
    }
    for (const type of ['text/plain', 'application/xml', 'application/jsonx', 'application/x-www-form-urlencoded', 'json']) {
      expectErrorBody(await call(server, 'POST', '/pets', { body, headers: { 'content-type': type } }), 415);
    }
    const untyped = await call(server, 'POST', '/pets', { body: Buffer.from(body), headers: { 'content-type': '' } });
    expectErrorBody(untyped, 415);
  });

  it('answers an oversized body 413 and keeps the connection usable', async () => {
    const server = await startServer({ bodyLimit: 1024 });
    const big = JSON.stringify({ name: 'x'.repeat(5000), categoryId: 1 });
    expectErrorBody(await createPet(server, big), 413);
    const huge = Buffer.alloc(3 * 1024 * 1024, 0x20);
    // Past 1 MiB the server closes the socket: the client sees the 413, or a reset if it was still
    // writing when the socket closed. Either way the upload is refused and the server keeps serving.
    const answer: Awaited<ReturnType<typeof call>> | Error = await call(server, 'POST', '/pets', { body: huge }).catch((error: Error) => error);
    if (answer instanceof Error) expect((answer as { code?: string }).code ?? answer.message).toMatch(/ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/i);
    else expectErrorBody(answer, 413);
    expect((await createPet(server, { name: 'small', categoryId: 1 })).status).toBe(201);
    expect((await createPet(server, JSON.stringify({ name: 'x'.repeat(990), categoryId: 1 }))).status).toBe(201);
  });

  it('echoes names exactly, whatever their characters', async () => {
    const server = await startServer();
    for (const name of ['', ' padded ', 'Ünïcödé 🐕', 'line\nbreak', '"quoted"\\', '\u2028', 'x'.repeat(10_000), '\ud800']) {
      const answer = await createPet(server, { name, categoryId: 1 });
      expect(answer.status).toBe(201);
      expect((answer.json as { name: string }).name).toBe(name);
    }
  });

  it('ignores fields it does not know', async () => {
    const server = await startServer();
    const answer = await createPet(server, { name: 'a', categoryId: 1, colour: 'brown', id: 99 });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ id: 1, name: 'a', categoryId: 1 });
  });
});

describe('reference server: int64', () => {
  it('keeps categoryId exact over the whole int64 range', async () => {
    const server = await startServer();
    for (const value of [MAX, MIN, '9007199254740993', '-9007199254740993', '0', '-1', '1234567890123456789']) {
      const answer = await createPet(server, `{"name":"a","categoryId":${value}}`);
      expect(answer.status, value).toBe(201);
      expect(answer.text).toContain(`"categoryId":${value}`);
      const id = (answer.json as { id: number }).id;
      expect((await call(server, 'GET', `/pets/${id}`)).text).toContain(`"categoryId":${value}`);
    }
  });

  it('refuses a categoryId outside int64 with 400', async () => {
    const server = await startServer();
    for (const value of ['9223372036854775808', '-9223372036854775809', '18446744073709551616', '1e19', '99999999999999999999999']) {
      expectErrorBody(await createPet(server, `{"name":"a","categoryId":${value}}`), 400);
    }
  });

  it('reads integers written with an exponent or a fraction exactly', async () => {
    const server = await startServer();
    const cases: Array<[string, string]> = [
      ['1.5e18', '1500000000000000000'],
      ['123456789012345e4', '1234567890123450000'],
      ['9.223372036854775807e18', MAX],
      ['1e3', '1000'],
      ['12.0', '12'],
    ];
    for (const [literal, exact] of cases) {
      const answer = await createPet(server, `{"name":"a","categoryId":${literal}}`);
      expect(answer.status, literal).toBe(201);
      expect(answer.text, literal).toContain(`"categoryId":${exact}`);
    }
    // Fractions a double rounds to an integer are fractions all the same.
    for (const literal of ['9.223372036854775808e18', '9007199254740993.5', '1.5', '1e-400', '1.0000000000000001', '0.99999999999999999']) {
      expectErrorBody(await createPet(server, `{"name":"a","categoryId":${literal}}`), 400);
    }
  });

  it('assigns ids above 2^53 exactly and finds pets by them', async () => {
    const server = await startServer({ idStart: 2n ** 53n + 1n });
    const answer = await createPet(server, { name: 'a', categoryId: 1 });
    expect(answer.text).toContain('"id":9007199254740993');
    expect(answer.headers.location).toBe('/v1/pets/9007199254740993');
    expect((await call(server, 'GET', '/pets/9007199254740993')).status).toBe(200);
    expectErrorBody(await call(server, 'GET', '/pets/9007199254740992'), 404);
  });

  it('serves ids at the ends of int64', async () => {
    const server = await startServer({ idStart: 2n ** 63n - 1n });
    const last = await createPet(server, { name: 'last', categoryId: 1 });
    expect(last.text).toContain(`"id":${MAX}`);
    const next = await createPet(server, { name: 'after', categoryId: 1 });
    expect(next.status).toBe(201);
    expect(next.text).not.toContain(`"id":${MAX}`);
    expect((await call(server, 'GET', `/pets/${MAX}`)).status).toBe(200);
    expectErrorBody(await call(server, 'GET', `/pets/${MIN}`), 404);
  });
});
