import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'test-key-0001';
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('client: User-Agent', () => {
  it('names the suite and its version on every request unless told otherwise, and records it', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, '[]', rateHeaders(Date.now())));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract });
    const listed = await client.listPets();
    await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.getPet(1, { headers: { 'User-Agent': 'curl/8.5.0' } });
    await client.getPet(2, { headers: { 'user-agent': '' } });
    const agents = server.requests.map((r) => r.headers['user-agent']);
    expect(agents).toEqual([`animal-store-conformance/${VERSION}`, `animal-store-conformance/${VERSION}`, 'curl/8.5.0', undefined]);
    expect(listed.exchange.request.headers['User-Agent']).toBe(`animal-store-conformance/${VERSION}`);
  });

  it('sends the configured User-Agent, or none when it is empty', async () => {
    const server = await startServer((_req, res) => sendJson(res, 200, '[]', rateHeaders(Date.now())));
    await createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, userAgent: 'acme-gateway-check/2' }).listPets();
    await createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, userAgent: '' }).listPets();
    expect(server.requests.map((r) => r.headers['user-agent'])).toEqual(['acme-gateway-check/2', undefined]);
  });
});
