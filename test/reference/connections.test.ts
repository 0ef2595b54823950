import { type Socket, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { KEY, startServer } from '../support/reference-server.ts';

interface Exchange {
  /** Everything the server sent, in order. */
  text: string;
  /** How the connection ended on the client's side. */
  ended: 'closed' | 'reset' | 'still-open';
}

/**
 * Opens a connection, writes `head`, then (optionally) keeps sending chunks until the server closes, or
 * until what it sent satisfies `until` (a kept-alive connection need not be waited out).
 */
function exchange(port: number, head: string, options: { chunks?: number; waitMs?: number; until?: (text: string) => boolean } = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    let text = '';
    let ended: Exchange['ended'] = 'still-open';
    const socket = connect(port, '127.0.0.1');
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, ended });
    };
    const timer = setTimeout(finish, options.waitMs ?? 5_000);
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (options.until?.(text)) finish();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' && ended === 'still-open') ended = 'reset';
    });
    socket.on('end', () => {
      if (ended === 'still-open') ended = 'closed';
    });
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(head);
      void keepSending(socket, options.chunks ?? 0);
    });
  });
}

async function keepSending(socket: Socket, chunks: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
  for (let i = 0; i < chunks && socket.writable; i++) {
    if (!socket.write(frame)) await new Promise((resume) => socket.once('drain', resume).once('close', resume));
  }
}

const statuses = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
/** The status line of one answer has arrived. */
const answered = (text: string): boolean => statuses(text).length > 0;

describe('reference server: connections', () => {
  it('a valid createPet followed by garbage in the same write gets its 201 first, then the 400, and the pet is there', async () => {
    const server = await startServer();
    const body = '{"name":"followed by garbage","categoryId":1}';
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answer = await exchange(server.port, `${head}${body}\u0000\u0001GARBAGE\r\n\r\n`);
    expect(statuses(answer.text)).toEqual([201, 400]);
    expect(server.store.all().map((pet) => pet.name)).toEqual(['followed by garbage']);
  });

  it('garbage inside a chunked body gets one 400 and stores nothing', async () => {
    const server = await startServer();
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const answer = await exchange(server.port, `${head}5\r\n{"nam\r\nZZ\r\n\r\n`);
    expect(statuses(answer.text)).toEqual([400]);
    expect(server.pets).toBe(0);
  });

  it('an upload that goes on far past the body limit gets its 413, then a clean close (no reset)', async () => {
    const server = await startServer({ bodyLimit: 1024 });
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    // 64 MiB offered: the server answers 413 with Connection: close, then reads and drops for 2 s at most.
    const answer = await exchange(server.port, head, { chunks: 1024, waitMs: 20_000 });
    expect(statuses(answer.text)).toEqual([413]);
    expect(answer.text).toContain('"payload_too_large"');
    expect(answer.ended).toBe('closed');
  });

  it('an upload a little past the limit gets its 413 with Connection: close, and a new connection is served', async () => {
    const server = await startServer({ bodyLimit: 1024 });
    const big = JSON.stringify({ name: 'x'.repeat(4096), categoryId: 1 });
    const one = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big}`;
    const two = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n\r\n`;
    const refused = await exchange(server.port, one + two, { waitMs: 5_000 });
    expect(statuses(refused.text)).toEqual([413]);
    expect(refused.text.toLowerCase()).toContain('connection: close');
    expect(refused.ended).toBe('closed');
    expect(statuses((await exchange(server.port, two, { waitMs: 5_000, until: answered })).text)).toEqual([200]);
  });

  it('connections beyond maxConnections are closed as they arrive; the ones within are served', async () => {
    const server = await startServer({ maxConnections: 2 });
    const get = `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n\r\n`;
    const idle = [connect(server.port, '127.0.0.1'), connect(server.port, '127.0.0.1')];
    await Promise.all(idle.map((socket) => new Promise((ready) => socket.once('connect', ready))));
    await new Promise((settle) => setTimeout(settle, 50));
    const refused = await exchange(server.port, get, { waitMs: 2_000 });
    expect(refused.text).toBe('');
    expect(refused.ended).not.toBe('still-open');
    for (const socket of idle) socket.destroy();
    await new Promise((settle) => setTimeout(settle, 50));
    const served = await exchange(server.port, get, { waitMs: 5_000, until: answered });
    expect(statuses(served.text)).toEqual([200]);
  });
});
