import { Client } from 'undici';
import { describe, expect, it } from 'vitest';
import { KEY, call, createPet, expectErrorBody, expectRateHeaders, startServer } from '../support/reference-server.ts';

const CHALLENGE = 'Bearer realm="animal-store"';
const CHALLENGE_INVALID = 'Bearer realm="animal-store", error="invalid_token"';

describe('reference server: authentication', () => {
  it('refuses a missing key with 401, the Error body, a challenge and rate-limit headers', async () => {
    const server = await startServer();
    const answer = await call(server, 'GET', '/pets', { key: null });
    expectErrorBody(answer, 401);
    expect(answer.headers['www-authenticate']).toBe(CHALLENGE);
    expectRateHeaders(answer);
  });

  it('refuses wrong keys and malformed headers', async () => {
    const server = await startServer();
    const refused: Array<[string, string]> = [
      [`Bearer ${KEY.slice(0, -1)}`, CHALLENGE_INVALID],
      [`Bearer ${KEY}x`, CHALLENGE_INVALID],
      [`Bearer ${KEY.toUpperCase()}`, CHALLENGE_INVALID],
      [`Bearer  ${KEY}`, CHALLENGE_INVALID],
      [`Bearer ${KEY} ${KEY}`, CHALLENGE_INVALID],
      ['Bearer', CHALLENGE],
      ['Bearer ', CHALLENGE],
      [KEY, CHALLENGE],
      [`Basic ${KEY}`, CHALLENGE],
      [`Basic ${Buffer.from(`${KEY}:`).toString('base64')}`, CHALLENGE],
      [`Token ${KEY}`, CHALLENGE],
      [`Bearer\t${KEY}`, CHALLENGE],
      [`Bearerx ${KEY}`, CHALLENGE],
    ];
    for (const [authorization, challenge] of refused) {
      const answer = await call(server, 'GET', '/pets', { key: null, headers: { authorization } });
      expectErrorBody(answer, 401);
      expect(answer.headers['www-authenticate'], authorization).toBe(challenge);
    }
  });

  it('checks every request of a keep-alive connection: one accepted key does not admit what follows', async () => {
    const other = 'test-key-other-plan-42';
    const server = await startServer({
      keys: [
        { key: KEY, plan: 'enterprise', perMinute: 1_000, perDay: 10_000 },
        { key: other, plan: 'free', perMinute: 60, perDay: 1_000 },
      ],
    });
    const client = new Client(`http://127.0.0.1:${server.port}`, { pipelining: 1 });
    let connections = 0;
    client.on('connect', () => (connections += 1));
    const send = async (authorization: string | undefined) => {
      const response = await client.request({ method: 'GET', path: '/v1/pets?limit=1', headers: authorization ? { authorization } : {} });
      await response.body.dump();
      return { status: response.statusCode, limit: response.headers['x-ratelimit-limit'] };
    };
    try {
      const sequence = [`Bearer ${KEY}`, `Bearer ${KEY}x`, undefined, `Bearer ${KEY}`, `Bearer ${other}`, `Bearer ${KEY.slice(0, -1)}`, `Bearer ${KEY}`];
      const answers = [];
      for (const authorization of sequence) answers.push(await send(authorization));
      expect(answers.map((a) => a.status)).toEqual([200, 401, 401, 200, 200, 401, 200]);
      // Each accepted request is charged to its own key: the free key's limit, then the first key's again.
      expect(answers[4]?.limit).toBe('60');
      expect(answers[6]?.limit).toBe('1000');
      expect(connections).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('accepts the scheme in any letter case', async () => {
    const server = await startServer();
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const answer = await call(server, 'GET', '/pets', { key: null, headers: { authorization: `${scheme} ${KEY}` } });
      expect(answer.status, scheme).toBe(200);
    }
  });

  it('ignores a key in the query string', async () => {
    const server = await startServer();
    for (const name of ['api_key', 'apiKey', 'key', 'access_token', 'token']) {
      expectErrorBody(await call(server, 'GET', `/pets?${name}=${KEY}`, { key: null }), 401);
    }
  });

  it('checks the key before routing, method, media type, size and body', async () => {
    const server = await startServer({ bodyLimit: 16 });
    const cases = [
      call(server, 'GET', '/nowhere', { key: null }),
      call(server, 'GET', '//elsewhere', { key: null }),
      call(server, 'DELETE', '/pets', { key: null }),
      call(server, 'GET', '/pets/abc', { key: null }),
      call(server, 'GET', '/pets/12345', { key: 'wrong-key' }),
      call(server, 'GET', '/pets?limit=abc', { key: null }),
      createPet(server, '{not json', { key: null }),
      createPet(server, { name: 'x'.repeat(100), categoryId: 1 }, { key: null }),
      createPet(server, { categoryId: 1 }, { key: 'wrong-key' }),
      call(server, 'POST', '/pets', { key: null, body: 'text', headers: { 'content-type': 'text/plain' } }),
    ];
    for (const answer of await Promise.all(cases)) expectErrorBody(answer, 401);
    expect(server.pets).toBe(0);
  });

  it('accepts keys of several plans, each with its own limits', async () => {
    const server = await startServer({
      keys: [
        { key: 'free-key-00000000', plan: 'free' },
        { key: 'pro-key-000000000', plan: 'PRO' },
        { key: 'big-key-000000000', plan: 'Enterprise', perMinute: 5_000, perDay: 50_000 },
      ],
    });
    expect(expectRateHeaders(await call(server, 'GET', '/pets', { key: 'free-key-00000000' })).limit).toBe(60);
    expect(expectRateHeaders(await call(server, 'GET', '/pets', { key: 'pro-key-000000000' })).limit).toBe(300);
    expect(expectRateHeaders(await call(server, 'GET', '/pets', { key: 'big-key-000000000' })).limit).toBe(5_000);
  });
});
