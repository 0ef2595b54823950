import { describe, expect, it } from 'vitest';
import { type Finding, runChecks } from '../../src/checks/index.ts';
import { createClient, type Exchange } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'sk-live-SECRET-1234567890';
const FORMS = [KEY, KEY.toUpperCase(), KEY.toLowerCase(), 'SECRET-1234567890'];

function expectNoKey(value: unknown): void {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  for (const form of FORMS) expect(text).not.toContain(form);
}

describe('client: the key never reaches a record', () => {
  it('redacts headers, URL, bodies, findings and curl, in every letter case', async () => {
    // A hostile target that echoes the credentials back everywhere it can.
    const server = await startServer((req, res, seen) => {
      const auth = req.headers.authorization ?? '';
      const echo = JSON.stringify({ code: auth, message: `${seen.url} ${auth.toUpperCase()} ${auth.toLowerCase()}`, status: 'x', body: seen.body });
      sendJson(res, 401, echo, { 'X-Echo': auth, 'WWW-Authenticate': `Basic realm="${auth}"`, 'Content-Type': `text/plain; k=${auth}` });
    });
    const exchanges: Exchange[] = [];
    const findings: Finding[] = [];
    const client = createClient({
      inspect: runChecks,
      baseUrl: server.baseUrl,
      apiKey: KEY,
      contract,
      onExchange: (e, f) => (exchanges.push(e), findings.push(...f)),
    });
    const response = await client.createPet({ name: KEY, categoryId: 1 }, { query: `api_key=${KEY}&lower=${KEY.toLowerCase()}` });
    await client.getPet(KEY);
    expect(response.text).toContain(KEY); // the suite itself still sees what the target sent
    expect(exchanges).toHaveLength(2);
    expect(findings.length).toBeGreaterThan(0);
    expectNoKey(exchanges);
    expectNoKey(findings);
    expect(exchanges[0]!.request.headers.Authorization).toBe('Bearer ***');
    expect(exchanges[0]!.request.url).toContain('api_key=***');
    expect(exchanges[0]!.curl).toContain('"Authorization: Bearer $API_KEY"');
    expect(exchanges[0]!.curl).toMatch(/api_key=\$(API_KEY|\{API_KEY\})&/);
  });

  it('shows a custom Authorization only as its `shown` form', async () => {
    const server = await startServer((_req, res) => sendJson(res, 401, '{"code":"unauthorized","message":"no","status":401}'));
    const exchanges: Exchange[] = [];
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, onExchange: (e) => exchanges.push(e) });
    await client.listPets({}, { auth: { value: `Bearer ${KEY.slice(0, 8)}`, shown: 'Bearer ${API_KEY:0:8}' } });
    await client.listPets({}, { auth: { value: `Bearer ${KEY}x`, shown: 'Bearer ${API_KEY}x' } });
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}x`);
    expect(exchanges[0]!.request.headers.Authorization).toBe('Bearer ${API_KEY:0:8}');
    expect(exchanges[0]!.curl).toContain('-H "Authorization: Bearer ${API_KEY:0:8}"');
    expect(exchanges[1]!.curl).toContain('-H "Authorization: Bearer ${API_KEY}x"');
    expect(JSON.stringify(exchanges)).not.toContain('sk-live-');
  });

  it('keeps the key out of transport error messages and their exchanges', async () => {
    const server = await startServer((req) => req.socket.destroy());
    const exchanges: Exchange[] = [];
    const client = createClient({ inspect: runChecks, baseUrl: `${server.origin}/${KEY}/v1`, apiKey: KEY, contract, onExchange: (e) => exchanges.push(e) });
    const error = await client.listPets({}, { query: `k=${KEY}` }).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ code: 'ERR_TARGET_UNREACHABLE' });
    expectNoKey({ message: (error as Error).message, stack: (error as Error).stack, exchanges });
    expect(exchanges[0]!.request.url).toBe(`${server.origin}/***/v1/pets?k=***`);
  });

  it('does not leak a key split by the 4 KiB cut of a recorded body', async () => {
    for (const offset of [4090, 4096 - KEY.length + 3, 8200]) {
      const body = `${'a'.repeat(offset)}${KEY}${'b'.repeat(6000)}`;
      const server = await startServer((_req, res) => sendJson(res, 200, JSON.stringify(body)));
      const exchanges: Exchange[] = [];
      const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, onExchange: (e) => exchanges.push(e) });
      // getPet: a list is kept whole up to a larger bound, any other body is cut at 4 KiB.
      await client.getPet(1n);
      const recorded = exchanges[0]!.response!;
      expect(recorded.bodyTruncated).toBe(true);
      expect(recorded.body!.length).toBeLessThanOrEqual(4096);
      expect(recorded.body).not.toMatch(/sk-l/i);
    }
  });

  it('does not leak a key echoed across four response headers, in pieces shorter than a fragment', async () => {
    const pieces = [KEY.slice(0, 7), KEY.slice(7, 14), KEY.slice(14, 21), KEY.slice(21)];
    const server = await startServer((_req, res) =>
      sendJson(res, 200, '[]', { 'X-A': pieces[0]!, 'X-B': pieces[1]!, 'X-C': pieces[2]!, 'X-D': pieces[3]!, 'X-Plain': 'kept' }),
    );
    const exchanges: Exchange[] = [];
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, onExchange: (e) => exchanges.push(e) });
    await client.listPets();
    const headers = exchanges[0]!.response!.headers;
    const joined = ['x-a', 'x-b', 'x-c', 'x-d']
      .map((name) => headers[name] ?? '')
      .join('')
      .toLowerCase();
    for (let at = 0; at + 8 <= KEY.length; at += 1) expect(joined).not.toContain(KEY.slice(at, at + 8).toLowerCase());
    expect(headers['x-plain']).toBe('kept');
  });

  it('does not leak a key the target repeats until redaction shrinks the scan window', async () => {
    const body = `${KEY.repeat(400)}`;
    const server = await startServer((_req, res) => sendJson(res, 200, JSON.stringify(body)));
    const exchanges: Exchange[] = [];
    const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, onExchange: (e) => exchanges.push(e) });
    await client.listPets();
    expect(exchanges[0]!.response!.body).toMatch(/^"(\*\*\*)+/);
    expect(exchanges[0]!.response!.body).not.toMatch(/sk-|SECRET/i);
  });
});
