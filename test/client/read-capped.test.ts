import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type TransportOptions, readCapped } from '../../src/client/transport.ts';

type Body = Parameters<typeof readCapped>[0];

const options = (maxResponseBytes: number): TransportOptions => ({
  maxResponseBytes,
  timeoutMs: 1000,
  origin: 'http://127.0.0.1:1',
  dispatcher: undefined as never,
});

/** A body that gives `chunks` one by one, then ends (or is destroyed, with or without an error); `given` counts the chunks it gave. */
function body(chunks: readonly string[], end: 'end' | 'destroy' | Error = 'end'): Readable & { given(): number } {
  let next = 0;
  const stream = new Readable({
    read() {
      if (next < chunks.length) return void this.push(Buffer.from(chunks[next++]!));
      if (end === 'end') this.push(null);
      else if (end === 'destroy') this.destroy();
      else this.destroy(end);
    },
  });
  return Object.assign(stream, { given: () => next });
}

describe('readCapped: the body of an answer, up to the most the suite reads', () => {
  it('reads a body whole, in its pieces', async () => {
    const read = await readCapped(body(['{"a":', '1}']) as unknown as Body, undefined, options(100));
    expect(read).toEqual({ bytes: Buffer.from('{"a":1}'), tooLarge: false });
  });

  it('stops at the limit, keeping exactly that many bytes, and reads no further', async () => {
    const stream = body(['abcd', 'efgh', ...Array.from({ length: 20 }, () => 'ijkl')]);
    const read = await readCapped(stream as unknown as Body, undefined, options(6));
    expect(read).toEqual({ bytes: Buffer.from('abcdef'), tooLarge: true });
    expect(stream.destroyed).toBe(true);
    // The stream reads one piece ahead of its consumer, no more.
    expect(stream.given()).toBeLessThanOrEqual(3);
  });

  it('keeps a body of exactly the limit whole', async () => {
    expect(await readCapped(body(['abc', 'def']) as unknown as Body, '6', options(6))).toEqual({ bytes: Buffer.from('abcdef'), tooLarge: false });
  });

  it('reads nothing of a body whose declared length is past the limit', async () => {
    const stream = body(['abcdefgh']);
    expect(await readCapped(stream as unknown as Body, '8', options(6))).toEqual({ bytes: Buffer.alloc(0), tooLarge: true });
    expect(stream.destroyed).toBe(true);
  });

  it("fails with the body's error", async () => {
    const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    await expect(readCapped(body(['ab'], reset) as unknown as Body, undefined, options(100))).rejects.toBe(reset);
  });

  it('fails, never waits, when the body closes with neither an end nor an error', async () => {
    await expect(readCapped(body(['ab'], 'destroy') as unknown as Body, undefined, options(100))).rejects.toMatchObject({
      code: 'ERR_STREAM_PREMATURE_CLOSE',
      message: 'Premature close',
    });
  }, 5_000);
});
