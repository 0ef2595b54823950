import { Agent } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type Finding, runChecks } from '../../src/checks/index.ts';
import { createClient, type Exchange } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { isHarnessError } from '../../src/errors.ts';
import { fakeClock, rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'test-key-0001';

describe('client: requests and responses', () => {
  it('reads int64 ids beyond 2^53 exactly and sends bigint fields exactly', async () => {
    const clock = fakeClock();
    const server = await startServer((_req, res, seen) => {
      const echoed = seen.body.replace('{', '{"id":9223372036854775807,');
      sendJson(res, 201, echoed, rateHeaders(clock.now()));
    });
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    const response = await client.createPet({ name: 'Rex', categoryId: 2n ** 53n + 1n });
    expect(server.requests[0]!.body).toBe('{"name":"Rex","categoryId":9007199254740993}');
    expect(response.status).toBe(201);
    expect(response.isJson).toBe(true);
    expect(response.body).toEqual({ id: 9223372036854775807n, name: 'Rex', categoryId: 9007199254740993n });
    expect(response.findings).toEqual([]);
  });

  it("writes a curl line that reads the client's own key variable (the exhaustion key's, a plan key's)", async () => {
    const clock = fakeClock();
    const server = await startServer((_req, res) => sendJson(res, 200, '[]', rateHeaders(clock.now())));
    const seen: Exchange[] = [];
    const options = { inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock, onExchange: (e: Exchange) => void seen.push(e) };
    await createClient(options).listPets({ limit: 1 });
    await createClient({ ...options, keyVariable: 'EXHAUST_API_KEY' }).getPet(KEY);
    expect(seen[0]!.curl).toContain('-H "Authorization: Bearer $API_KEY"');
    expect(seen[1]!.curl).toContain('-H "Authorization: Bearer $EXHAUST_API_KEY"');
    expect(seen[1]!.curl).toContain('/v1/pets/$EXHAUST_API_KEY');
    expect(seen[1]!.curl).not.toContain('$API_KEY');
  });

  it('sends Bearer auth, JSON content type, the query and the path it is given', async () => {
    const clock = fakeClock();
    const server = await startServer((_req, res) => sendJson(res, 200, '[]', rateHeaders(clock.now())));
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, clock });
    await client.listPets({ limit: 5, status: 'sold', skipped: undefined }, { query: 'x=1' });
    await client.getPet('a b/c', { auth: 'none' });
    await client.getPet(2n ** 63n - 1n, { auth: { value: 'Basic abc', shown: 'Basic ***' } });
    await client.createPet(undefined, { rawBody: 'name=Rex', contentType: 'application/x-www-form-urlencoded' });
    await client.createPet(undefined, { rawBody: '{}', contentType: null });
    const [list, odd, big, form, bare] = server.requests;
    expect(list).toMatchObject({ method: 'GET', url: '/v1/pets?limit=5&status=sold&x=1' });
    expect(list!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(odd).toMatchObject({ url: '/v1/pets/a%20b%2Fc' });
    expect(odd!.headers.authorization).toBeUndefined();
    expect(big!.url).toBe('/v1/pets/9223372036854775807');
    expect(big!.headers.authorization).toBe('Basic abc');
    expect(form!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form!.body).toBe('name=Rex');
    expect(bare!.headers['content-type']).toBeUndefined();
    expect(bare!.body).toBe('{}');
    expect(client.requestCount).toBe(5);
  });

  it('lower-cases response header names and joins duplicated headers', async () => {
    const server = await startServer((_req, res) => {
      res.setHeader('X-RateLimit-Limit', ['10', '10']);
      res.setHeader('Content-Type', 'application/json');
      res.end('not json');
    });
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract });
    const response = await client.listPets();
    expect(response.headers['x-ratelimit-limit']).toBe('10, 10');
    expect(response.isJson).toBe(false);
    expect(response.body).toBeUndefined();
    expect(response.text).toBe('not json');
  });

  it('refuses credentials passed as a plain header, which would bypass redaction', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, '[]'));
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract });
    await expect(client.listPets({}, { headers: { authorization: `Bearer ${KEY}` } })).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
    await expect(client.send({ method: 'GET', path: '@evil.example/x' })).resolves.toBeDefined();
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('runs the always-on checks and hands each exchange to onExchange', async () => {
    const server = await startServer((_req, res) => sendJson(res, 500, '{"oops":true}'));
    const seen: Array<[Exchange, Finding[]]> = [];
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, onExchange: (e, f) => seen.push([e, f]) });
    const response = await client.listPets();
    const ids = response.findings.map((f) => f.requirementId);
    expect(ids).toContain('STA-008');
    expect(ids).toContain('STA-009');
    expect(ids).toContain('RATE-001');
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toBe(response.exchange);
    expect(response.exchange).toMatchObject({ seq: 1, operationId: 'listPets', response: { status: 500, body: '{"oops":true}' } });
    expect(response.findings.every((f) => f.exchangeSeq === 1)).toBe(true);
  });

  it('keeps one request in flight per client, in call order', async () => {
    let inFlight = 0;
    let most = 0;
    const server = await startServer((_req, res, seen) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        sendJson(res, 200, `[${seen.url.split('=')[1]}]`);
      }, 20);
    });
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract });
    const answers = await Promise.all([1, 2, 3, 4].map((n) => client.listPets({ limit: n })));
    expect(most).toBe(1);
    expect(answers.map((a) => a.text)).toEqual(['[1]', '[2]', '[3]', '[4]']);
    expect(server.requests.map((r) => r.url)).toEqual([1, 2, 3, 4].map((n) => `/v1/pets?limit=${n}`));
  });

  it('reuses one keep-alive connection through a shared dispatcher', async () => {
    const sockets = new Set<unknown>();
    const server = await startServer((req, res) => {
      sockets.add(req.socket);
      sendJson(res, 200, '[]');
    });
    const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 4 });
    onTestFinished(() => dispatcher.close());
    const first = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, dispatcher });
    const second = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, dispatcher });
    for (let i = 0; i < 20; i += 1) await (i % 2 ? first : second).listPets();
    expect(server.requests).toHaveLength(20);
    // undici may open a second connection while the first is being handed back; never one per request.
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('keeps serving after a failed request', async () => {
    const server = await startServer((req, res) => (req.url?.includes('limit=1') ? req.socket.destroy() : sendJson(res, 200, '[]')));
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract });
    const failed = client.listPets({ limit: 1 });
    const next = client.listPets({ limit: 2 });
    await expect(failed).rejects.toSatisfy(isHarnessError);
    await expect(next).resolves.toMatchObject({ status: 200 });
  });
});

describe('client: redirects and origins', () => {
  it('returns a 3xx as a response and never sends Authorization to the other origin', async () => {
    const other = await startServer((_req, res) => sendJson(res, 200, '[]'));
    const target = await startServer((_req, res) => {
      res.writeHead(302, { Location: `${other.origin}/v1/pets`, 'Content-Type': 'text/html' });
      res.end('<a href="elsewhere">moved</a>');
    });
    const client = createClient({ inspect: runChecks, baseUrl: target.baseUrl, apiKey: KEY, contract });
    const response = await client.listPets();
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`${other.origin}/v1/pets`);
    expect(other.requests).toEqual([]);
    expect(target.requests).toHaveLength(1);
    expect(response.findings.map((f) => f.requirementId)).toEqual(expect.arrayContaining(['STA-009', 'SCH-004']));
    expect(response.findings.find((f) => f.requirementId === 'STA-009')!.actual).toMatch(/302.*redirect/);
  });

  it('keeps the Authorization header on the base URL origin even with a prefix path', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, '[]'));
    const client = createClient({ inspect: runChecks, baseUrl: `${server.origin}/api/gw/v1/`, apiKey: KEY, contract });
    await client.listPets();
    expect(server.requests[0]).toMatchObject({ url: '/api/gw/v1/pets', headers: { authorization: `Bearer ${KEY}` } });
  });
});
