import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../support/reference-server.ts';

/**
 * Sends raw bytes and returns what the server answered: up to its JSON body, or its close, whichever comes
 * first (a connection it keeps open is not waited out; the time-out only guards a server that never answers).
 */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const done = () => {
      socket.destroy();
      resolve(out);
    };
    socket.on('data', (chunk) => {
      out += chunk.toString('latin1');
      if (parse(out).body !== undefined) done();
    });
    socket.on('close', done);
    socket.on('error', done);
    const guard = setTimeout(done, 5_000);
    socket.on('close', () => clearTimeout(guard));
  });
}

function parse(answer: string): { status: number; headers: string; body: unknown } {
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  let body: unknown;
  const text = rest.join('\r\n\r\n');
  // A chunked body: the JSON sits between the size line and the trailer.
  const json = /\{.*\}/s.exec(text)?.[0];
  try {
    body = json ? JSON.parse(json) : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head.toLowerCase(), body };
}

describe('reference server: the answers node would give itself carry the Error body and the rate-limit headers', () => {
  it.each([
    ['an HTTP/1.1 request without Host', 'GET /v1/pets HTTP/1.1\r\n\r\n', 400],
    ['an Expect the server does not support', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: foo\r\n\r\n', 417],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
    ['bytes that are not HTTP', 'HELLO\r\n\r\n', 400],
  ])('%s', async (_label, request, status) => {
    const server = await startServer();
    const answer = parse(await raw(server.port, request));
    expect(answer.status).toBe(status);
    expect(answer.headers).toContain('x-ratelimit-limit:');
    expect(answer.headers).toContain('x-ratelimit-remaining:');
    expect(answer.headers).toContain('x-ratelimit-reset:');
    expect(answer.body).toMatchObject({ code: expect.any(String), message: expect.any(String), status });
  });
});
