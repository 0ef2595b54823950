import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/client/interim-responses.ts';
import { createClient } from '../../src/client/index.ts';
import { shapeHead } from '../../src/client/wire-shape.ts';
import { createContract } from '../../src/contract/index.ts';
import { sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'shape-key-3Kd8Vb2Nx6Qp';

describe("the run's request heads go out as curl writes them", () => {
  it("rewrites undici's host, connection and content-length, and nothing else", () => {
    const head = 'POST /v1/pets HTTP/1.1\r\nhost: a.test:8080\r\nconnection: keep-alive\r\nUser-Agent: curl/8.5.0\r\nx-own: 1\r\ncontent-length: 2\r\n\r\n';
    expect(shapeHead(head)).toBe('POST /v1/pets HTTP/1.1\r\nHost: a.test:8080\r\nUser-Agent: curl/8.5.0\r\nx-own: 1\r\nContent-Length: 2\r\n\r\n');
    expect(shapeHead('GET / HTTP/1.1\r\nhost: a\r\nconnection: close\r\n\r\n')).toBe('GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
    // Not a head undici wrote (a chunk size, a head of another shape): untouched.
    for (const other of ['\r\n5\r\n', 'GET / HTTP/1.1\r\nHost: a\r\n\r\n', 'hello']) expect(shapeHead(other)).toBe(other);
  });

  it('a server sees Host first, no Connection: keep-alive, the request fields in order', async () => {
    const seen: string[][] = [];
    const server = await startServer((req, res) => {
      seen.push(req.rawHeaders.filter((_, i) => i % 2 === 0));
      sendJson(res, 201, '{}');
    });
    const dispatcher = createAgent({ connections: 1 });
    try {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, dispatcher, userAgent: 'curl/8.5.0' });
      await client.listPets({ limit: 1 });
      await client.createPet({ name: 'Bella', categoryId: 1 });
    } finally {
      await dispatcher.close();
    }
    expect(seen[0]).toEqual(['Host', 'User-Agent', 'Authorization']);
    expect(seen[1]?.[0]).toBe('Host');
    expect(seen[1]).toContain('Content-Length');
    expect(seen.flat().map((name) => name.toLowerCase())).not.toContain('connection');
  });
});
