import type { IncomingMessage } from 'node:http';

export const TOO_LARGE = 'too-large';
export const ABORTED = 'aborted';

/** Whether the request announces a body at all (a length above 0, or chunked coding). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `application/json`, with any parameters (charset…), in any letter case. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim();
  return essence.toLowerCase() === 'application/json';
}

/**
 * The whole body (through `join`, the seam that sees the pieces it arrived in), or TOO_LARGE as soon as it passes `limit` bytes, or ABORTED if the client left.
 * The listeners are inline and never removed: a settled promise ignores what comes after (the 'close'
 * that follows 'end'), and naming four closures per request costs more than the rest of the read.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  join: (body: Buffer, pieces: readonly Buffer[]) => Buffer,
): Promise<Buffer | typeof TOO_LARGE | typeof ABORTED> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    drain(req);
    return Promise.resolve(TOO_LARGE);
  }
  return new Promise((resolve) => {
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
      resolve(TOO_LARGE);
    });
    req.on('end', () => resolve(join(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size), chunks)));
    req.on('error', () => resolve(ABORTED));
    req.on('close', () => resolve(ABORTED));
  });
}

// After refusing a body, the rest is read and dropped so that the connection can be reused and the client
// reads the 413; how far a sender may go on is the server's concern (connections.ts).
function drain(req: IncomingMessage): void {
  req.on('error', () => {});
  req.resume();
}
