import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { rawRequestBytes, sendRawRequest } from '../../src/client/raw-request.ts';
import { DIRECT } from '../../src/client/network-settings.ts';
import { createServer } from 'node:net';
import { startServer } from './test-server.ts';

const CURL_FIELDS: Array<[string, string]> = [
  ['Host', 'example.test'],
  ['User-Agent', 'curl/8.5.0'],
  ['Accept', '*/*'],
];

describe('the second HTTP stack', () => {
  it("writes the fields in the order and letter case given, the run's --header fields and a Content-Length after them", () => {
    const network = { ...DIRECT, headers: [['X-Gateway', 'token-123456'] as const] };
    const bytes = rawRequestBytes({ url: 'http://example.test/v1/pets?limit=1', method: 'POST', fields: CURL_FIELDS, body: '{"a":"é"}', network });
    expect(bytes).toBe(
      'POST /v1/pets?limit=1 HTTP/1.1\r\nHost: example.test\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\nX-Gateway: token-123456\r\nContent-Length: 10\r\n\r\n' +
        Buffer.from('{"a":"é"}').toString('latin1'),
    );
  });

  it('reaches a server with exactly that head, and reads a gzip body decoded', async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-raw': JSON.stringify(req.rawHeaders) });
      res.end(gzipSync('[]'));
    });
    const host = new URL(server.origin).host;
    const answer = await sendRawRequest({
      url: `${server.baseUrl}/pets`,
      method: 'GET',
      fields: [['Host', host], ...CURL_FIELDS.slice(1)],
      timeoutMs: 5_000,
      maxResponseBytes: 1024,
    });
    expect(answer.kind).toBe('response');
    if (answer.kind !== 'response') return;
    expect(JSON.parse(answer.headers['x-raw'] ?? '')).toEqual(['Host', host, 'User-Agent', 'curl/8.5.0', 'Accept', '*/*']);
    expect(answer.bytes.toString()).toBe('[]');
  });

  it('says why there is no answer instead of throwing', async () => {
    // A port nothing listens on: bound, then closed again.
    const listener = createServer();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as { port: number };
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    const closedPortOrigin = async () => `http://127.0.0.1:${port}`;
    const answer = await sendRawRequest({
      url: `${await closedPortOrigin()}/v1/pets`,
      method: 'GET',
      fields: CURL_FIELDS,
      timeoutMs: 2_000,
      maxResponseBytes: 1024,
    });
    expect(answer.kind).toBe('unreachable');
  });
});
