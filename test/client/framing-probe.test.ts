import { type AddressInfo, type Socket, createServer } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Exchange } from '../../src/client/index.ts';
import { type FramingProbeResult, probeFraming, probeFramingOnceMoreIfLost } from '../../src/client/framing-probe.ts';
import { parseResponse } from '../../src/client/raw-http.ts';

const KEY = 'probe-key-8Jd3Qx7Wm2Rt';

/** A raw server: `answer` gets each request head (split at the blank line) and writes what it likes. */
async function rawServer(answer: (socket: Socket, head: string, index: number) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let pending = '';
    let index = 0;
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        answer(socket, head, index++);
      }
    });
  });
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const ok = (extra = '') => `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${extra}\r\n[]`;
const unauthorized = `HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
const keyed = (head: string) => /\r\nAuthorization: Bearer /.test(head);

async function probe(baseUrl: string, lone = true): Promise<FramingProbeResult & { claimed: number; recorded: Exchange[] }> {
  let claimed = 0;
  let seq = 0;
  const recorded: Exchange[] = [];
  const sink = { claim: () => void (claimed += 1), nextSeq: () => ++seq, record: (e: Exchange) => void recorded.push(e) };
  const result = await probeFraming({ baseUrl, apiKey: KEY, timeoutMs: 2_000, quietMs: 150, lone, sink });
  return { ...result, claimed, recorded };
}

describe('framing probe', () => {
  it('passes a server that answers each request once, pipelined ones in order; claims and records three requests, key redacted', async () => {
    const baseUrl = await rawServer((socket, head) => socket.write(keyed(head) ? ok() : unauthorized));
    const result = await probe(baseUrl);
    expect(result.problems).toEqual([]);
    expect(result.claimed).toBe(3);
    expect(result.recorded.map((e) => e.response?.status)).toEqual([200, 200, 401]);
    expect(result.connections).toBe(1);
    expect(JSON.stringify(result.recorded)).not.toContain(KEY);
  });

  it('fails a server that sends one more response after each answer, quoting the bytes', async () => {
    const baseUrl = await rawServer((socket) => socket.write(ok() + ok()));
    const result = await probe(baseUrl);
    expect(result.problems[0]?.actual).toMatch(/more bytes within 150 ms: "HTTP\/1\.1 200 OK/);
    expect(result.problems[0]?.exchanges).toHaveLength(1);
  });

  it('without the lone request (two requests), still fails a server that sends one more response after each answer, or drops a reused connection', async () => {
    const extra = await probe(await rawServer((socket) => socket.write(ok() + ok())), false);
    expect(extra.claimed).toBe(2);
    expect(extra.problems[0]?.actual).toMatch(/more bytes within 150 ms: "HTTP\/1\.1 200 OK/);
    const dropping = await probe(await rawServer((socket, _head, index) => (index === 0 ? socket.write(ok()) : socket.destroy())), false);
    expect(dropping.problems[0]?.actual).toMatch(/closed the connection/);
    const fine = await probe(await rawServer((socket, head) => socket.write(keyed(head) ? ok() : unauthorized)), false);
    expect({ problems: fine.problems, claimed: fine.claimed }).toEqual({ problems: [], claimed: 2 });
  });

  it('fails a server that closes the connection after an answer that did not say Connection: close', async () => {
    const baseUrl = await rawServer((socket) => socket.end(ok()));
    const result = await probe(baseUrl);
    expect(result.problems[0]?.actual).toMatch(/closed it \d+ ms after a response without Connection: close/);
  });

  it('fails a server that drops the second request on a connection without answering', async () => {
    const baseUrl = await rawServer((socket, _head, index) => (index === 0 ? socket.write(ok()) : socket.destroy()));
    const result = await probe(baseUrl);
    expect(result.problems[0]).toMatchObject({
      expected: 'one response to the first of two pipelined requests',
      actual: expect.stringMatching(/closed the connection/),
    });
    expect(result.recorded.at(-1)?.error?.code).toBe('ERR_TARGET_UNREACHABLE');
  });

  it('fails a server that answers pipelined requests out of order', async () => {
    const held: string[] = [];
    const baseUrl = await rawServer((socket, head, index) => {
      if (index === 0) return void socket.write(ok());
      held.push(keyed(head) ? ok() : unauthorized);
      if (held.length === 2) socket.write(held.reverse().join(''));
    });
    const result = await probe(baseUrl);
    expect(result.problems[0]?.actual).toMatch(/swapped/);
    expect(result.problems[0]?.exchanges).toHaveLength(2);
  });

  it('passes a server that says Connection: close and closes: the pair goes on a new connection, its second request unanswered', async () => {
    const baseUrl = await rawServer((socket) => socket.end(ok('Connection: close\r\n')));
    const result = await probe(baseUrl);
    expect(result.problems).toEqual([]);
    expect(result.connections).toBe(2);
    expect(result.notes.join('\n')).toMatch(/left the second unanswered/);
  });

  it('probes once more after a request lost alone (a blip), never after bytes out of place', async () => {
    let seen = 0;
    const blip = await rawServer((socket, head) => (++seen === 2 ? socket.destroy() : socket.write(keyed(head) ? ok() : unauthorized)));
    const sink = { claim: () => undefined, nextSeq: () => 0, record: () => undefined };
    const options = { apiKey: KEY, timeoutMs: 2_000, quietMs: 150, sink };
    const again = await probeFramingOnceMoreIfLost({ ...options, baseUrl: blip }, () => true);
    expect({ problems: again.problems, lostFirst: again.lostFirst }).toEqual({ problems: [], lostFirst: expect.stringMatching(/closed the connection/) });
    // The first run's exchanges are logged too: handed back, with what was heard after the response, to be judged.
    expect(again.earlier?.map((e) => e.heardAfter)).toEqual([{ bytes: 0, closed: false }, undefined]);
    const dropping = await rawServer((socket, _head, index) => (index === 0 ? socket.write(ok()) : socket.destroy()));
    expect((await probeFramingOnceMoreIfLost({ ...options, baseUrl: dropping }, () => true)).problems[0]?.kind).toBe('lost');
    let seenOnce = 0;
    const blipOnce = await rawServer((socket, head) => (++seenOnce === 2 ? socket.destroy() : socket.write(keyed(head) ? ok() : unauthorized)));
    // Without room in the budget the loss stands.
    expect((await probeFramingOnceMoreIfLost({ ...options, baseUrl: blipOnce }, () => false)).problems[0]?.kind).toBe('lost');
    let repeats = 0;
    const extra = await rawServer((socket) => socket.write(ok() + ok()));
    await probeFramingOnceMoreIfLost({ ...options, baseUrl: extra }, () => ++repeats > 0);
    expect(repeats).toBe(0);
  });

  it('reads chunked bodies, skips interim 100 Continue, and frames a body without length by the close', () => {
    const chunked = Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;x=1\r\n[]\r\n0\r\nT: v\r\n\r\nrest');
    const parsed = parseResponse(chunked, false);
    expect(parsed).toMatchObject({ kind: 'complete', length: chunked.length - 4 });
    expect(parseResponse(Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'), false)).toMatchObject({ kind: 'complete', response: { status: 100 } });
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\n\r\n[]'), false)).toEqual({ kind: 'incomplete' });
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\n\r\n[]'), true)).toMatchObject({ kind: 'complete', response: { closeDelimited: true } });
    expect(parseResponse(Buffer.from('[]'), false)).toMatchObject({ kind: 'malformed' });
    expect(parseResponse(Buffer.from('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n'), false)).toMatchObject({ response: { connectionClose: true } });
    expect(parseResponse(Buffer.from('HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n'), false)).toMatchObject({
      response: { connectionClose: false },
    });
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n'), false)).toMatchObject({ kind: 'malformed' });
  });

  it('refuses a header line whose field name is not a token, tolerating only whitespace before the colon', () => {
    // A reply whose header pairs slipped by one (`Stryker was here: x-ratelimit-limit`, then `100: …`): undici refuses it.
    const slipped = Buffer.from('HTTP/1.1 400 Bad Request\r\nStryker was here: x-ratelimit-limit\r\ncontent-length: 0\r\n\r\n');
    expect(parseResponse(slipped, false)).toMatchObject({ kind: 'malformed', reason: expect.stringContaining('not a token') });
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nX-A\u00e9: 1\r\nContent-Length: 0\r\n\r\n'), false)).toMatchObject({ kind: 'malformed' });
    const spaced = parseResponse(Buffer.from("HTTP/1.1 200 OK\r\nX-RateLimit-Limit : 100\r\nX-Odd!#$%&'*+.^_`|~9: y\r\nContent-Length: 0\r\n\r\n"), false);
    expect(spaced).toMatchObject({ kind: 'complete', response: { headers: { 'x-ratelimit-limit': '100', "x-odd!#$%&'*+.^_`|~9": 'y' } } });
  });
});
