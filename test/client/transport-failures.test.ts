import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createClient, type Exchange } from '../../src/client/index.ts';
import { runChecks } from '../../src/checks/index.ts';
import { isGarbledAnswer } from '../../src/client/transport.ts';
import { createContract } from '../../src/contract/index.ts';
import type { HarnessError } from '../../src/errors.ts';
import { startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'test-key-0002';

async function failure(promise: Promise<unknown>): Promise<HarnessError> {
  try {
    await promise;
  } catch (error) {
    return error as HarnessError;
  }
  throw new Error('expected the request to fail');
}

describe('client: transport failures become HarnessErrors', () => {
  it('ends a hanging target at the timeout with ERR_TARGET_TIMEOUT', async () => {
    const server = await startServer(() => {
      // never answers
    });
    const exchanges: Exchange[] = [];
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, timeoutMs: 300, onExchange: (e) => exchanges.push(e) });
    const started = performance.now();
    const error = await failure(client.listPets());
    expect(performance.now() - started).toBeLessThan(30_000); // far past the timeout: only a client that never ends fails
    expect(error).toMatchObject({ name: 'HarnessError', code: 'ERR_TARGET_TIMEOUT' });
    expect(error.message).toContain(server.origin);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.error).toMatchObject({ code: 'ERR_TARGET_TIMEOUT' });
    expect(exchanges[0]!.response).toBeUndefined();
  });

  it('ends a target dripping one byte a second at the whole-exchange timeout', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(timer));
      res.write('[');
    });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, timeoutMs: 1500 });
    const started = performance.now();
    const error = await failure(client.listPets());
    const elapsed = performance.now() - started;
    expect(error.code).toBe('ERR_TARGET_TIMEOUT');
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(30_000); // a client that reads a drip forever never gets here; a busy machine does
  });

  it.each([
    ['with Content-Length', true],
    ['chunked', false],
  ])('stops reading a 50 MB body (%s): the target failed to answer within bounds, a finding, not a harness error', async (_label, declared) => {
    const size = 50 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let written = 0;
    const server = await startServer((_req, res) => {
      res.writeHead(200, declared ? { 'Content-Type': 'application/json', 'Content-Length': String(size) } : { 'Content-Type': 'application/json' });
      const pump = () => {
        while (written < size) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, inspect: runChecks });
    const response = await client.listPets();
    expect(response.isJson).toBe(false);
    expect(response.jsonError).toContain(String(2 * 1024 * 1024));
    const finding = response.findings.find((f) => f.requirementId === 'SCH-004');
    expect(finding?.actual).toContain(`larger than ${2 * 1024 * 1024} bytes`);
    expect(written).toBeLessThan(size);
  });

  it('reports a reset connection as ERR_TARGET_UNREACHABLE naming the origin', async () => {
    const server = await startServer((req) => req.socket.resetAndDestroy());
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract });
    const error = await failure(client.listPets());
    expect(error.code).toBe('ERR_TARGET_UNREACHABLE');
    expect(error.message).toContain(server.origin);
    expect(isGarbledAnswer(error), 'a reset is no answer, not a garbled one').toBe(false);
  });

  it('reports a closed port as ERR_TARGET_UNREACHABLE (connection refused)', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY, contract });
    const error = await failure(client.listPets());
    expect(error.code).toBe('ERR_TARGET_UNREACHABLE');
    expect(error.message).toMatch(/refused/);
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });

  it('reports a response that is not HTTP as ERR_TARGET_UNREACHABLE, a garbled answer rather than none', async () => {
    const server = await startServer((req) => {
      req.socket.end('SSH-2.0-OpenSSH\r\n\r\n');
    });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract });
    const error = await failure(client.listPets());
    expect(error.code).toBe('ERR_TARGET_UNREACHABLE');
    expect(isGarbledAnswer(error)).toBe(true);
  });

  it('takes a response whose status line is missing (headers first) for a garbled answer', async () => {
    const server = await startServer((req) => {
      req.socket.end('\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}');
    });
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract });
    const error = await failure(client.listPets());
    expect(error.code).toBe('ERR_TARGET_UNREACHABLE');
    expect(isGarbledAnswer(error)).toBe(true);
  });

  it('rejects a base URL that is not a URL with ERR_CONFIG', () => {
    expect(() => createClient({ baseUrl: 'not a url', apiKey: KEY, contract })).toThrow(expect.objectContaining({ code: 'ERR_CONFIG' }));
  });
});
