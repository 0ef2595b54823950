import type { IncomingMessage } from 'node:http';

export const TOO_LARGE = 'too-large';
export const ABORTED = 'aborted';

const JSON_MEDIA_TYPE = 'application/json';

/** Whether the request announces a body at all (a length above 0, or chunked coding). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `application/json`, with any parameters (charset…), in any letter case. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  // What nearly every client sends, answered without a slice, a trim and a lower-casing.
  if (contentType === JSON_MEDIA_TYPE) return true;
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim();
  return essence.toLowerCase() === JSON_MEDIA_TYPE;
}

/** What readBody hands its callback: the whole body, TOO_LARGE or ABORTED. */
export type BodyRead = Buffer | typeof TOO_LARGE | typeof ABORTED;

/**
 * Calls `done` with the whole body (through `join`, the seam that sees the pieces it arrived in), or
 * TOO_LARGE as soon as it passes `limit` bytes, or ABORTED if the client left; only its first call
 * counts (the 'close' that follows 'end' calls it again). A callback rather than a promise: createPet
 * wraps the read and its checks in one promise, where a promise here would add a second one and its
 * microtask to every POST. The listeners are inline and never removed: naming four closures per request
 * costs more than the rest of the read.
 */
export function readBody(req: IncomingMessage, limit: number, join: (body: Buffer, pieces: readonly Buffer[]) => Buffer, done: (body: BodyRead) => void): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    drain(req);
    done(TOO_LARGE);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    if (size > limit) return;
    size += chunk.length;
    if (size <= limit) {
      chunks.push(chunk);
      return;
    }
    drain(req);
    done(TOO_LARGE);
  });
  req.on('end', () => done(join(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size), chunks)));
  req.on('error', () => done(ABORTED));
  req.on('close', () => done(ABORTED));
}

// After refusing a body, the rest is read and dropped so that the connection can be reused and the client
// reads the 413; how far a sender may go on is the server's concern (connections.ts).
function drain(req: IncomingMessage): void {
  req.on('error', () => {});
  req.resume();
}
