import { createServer } from 'node:http';
import { Client } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createClient } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'test-key-0001';
const BODY = '{"name":"Rex","categoryId":1}';

describe('how the client frames a body', () => {
  it('sends chunked, split and latin1 bodies with the same bytes, framed as asked', async () => {
    const server = await startServer((_req, res) => sendJson(res, 201, '{}', rateHeaders(Date.now())));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract });
    await client.createPet(undefined, { rawBody: BODY, framing: 'chunked' });
    await client.createPet(undefined, { rawBody: BODY, framing: 'split' });
    await client.createPet(undefined, { rawBody: '{"name":"\xff\xfe"}', bodyEncoding: 'latin1' });
    const [chunked, split, latin1] = server.requests;
    expect(chunked?.headers['transfer-encoding']).toBe('chunked');
    expect(chunked?.headers['content-length']).toBeUndefined();
    expect(chunked?.body).toBe(BODY);
    expect(split?.headers['transfer-encoding']).toBeUndefined();
    expect(split?.headers['content-length']).toBe(String(BODY.length));
    expect(split?.body).toBe(BODY);
    // Read back as UTF-8, the two bytes that are not UTF-8 become replacement characters.
    expect(latin1?.body).toBe('{"name":"\ufffd\ufffd"}');
    expect(latin1?.headers['content-length']).toBe('13');
  });

  it('names the target in absolute-form when asked, and says so in the curl line', async () => {
    const targets: string[] = [];
    const raw = createServer((req, res) => {
      targets.push(req.url ?? '');
      sendJson(res, 200, '[]', rateHeaders(Date.now()));
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => raw.close(() => resolve())));
    const origin = `http://127.0.0.1:${(raw.address() as { port: number }).port}`;
    const client = createClient({ baseUrl: `${origin}/v1`, apiKey: KEY, contract });
    const absolute = await client.send({ method: 'GET', path: '/pets', query: 'limit=1' }, { absoluteForm: true });
    await client.send({ method: 'GET', path: '/pets', query: 'limit=1' });
    const malformed = await client.send({ method: 'GET', path: '/pets' }, { absoluteForm: { authority: '[' } });
    expect(targets).toEqual([`${origin}/v1/pets?limit=1`, '/v1/pets?limit=1', 'http://[/v1/pets']);
    expect(absolute.exchange.curl).toContain(`--request-target '${origin}/v1/pets?limit=1'`);
    expect(malformed.exchange.curl).toContain(`--request-target 'http://[/v1/pets'`);
  });

  it('writes a split body in several pieces', async () => {
    const arrivals: number[] = [];
    const raw = createServer((req, res) => {
      let pieces = 0;
      req.on('data', () => (pieces += 1));
      req.on('end', () => {
        arrivals.push(pieces);
        sendJson(res, 201, '{}', rateHeaders(Date.now()));
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => raw.close(() => resolve())));
    const address = raw.address() as { port: number };
    const client = createClient({ baseUrl: `http://127.0.0.1:${address.port}/v1`, apiKey: KEY, contract });
    await client.createPet(undefined, { rawBody: BODY, framing: 'split' });
    expect(arrivals[0]).toBeGreaterThan(1);
  });

  it('sends every request of a test on its own connection when given a dispatcher', async () => {
    const ports: number[] = [];
    const server = await startServer((req, res) => {
      ports.push(req.socket.remotePort ?? 0);
      sendJson(res, 200, '[]', rateHeaders(Date.now()));
    });
    const connection = new Client(server.origin, { pipelining: 1 });
    onTestFinished(() => connection.close());
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract });
    await client.listPets({ limit: 1 }, { dispatcher: connection });
    await client.listPets({ limit: 1 }, { dispatcher: connection, auth: { value: 'Bearer other', shown: 'Bearer other' } });
    expect(ports).toHaveLength(2);
    expect(ports[0]).toBe(ports[1]);
  });
});
