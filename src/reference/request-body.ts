import type { IncomingMessage } from 'node:http';

// Stryker disable all: sentinel labels: any two distinct strings
export const TOO_LARGE = 'too-large';
export const ABORTED = 'aborted';
// Stryker restore all

/** Whether the request announces a body at all (a length above 0, or chunked coding). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  // Stryker disable next-line all: a request without a body is refused (400) by the JSON read anyway
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `application/json`, with any parameters (charset…), in any letter case. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  // Stryker disable next-line all: a missing Content-Type is refused either way (400 or 415)
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  // Stryker disable next-line all: parameters after the media type are cut either way; the type is compared in lower case next
  const essence = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim();
  return essence.length === 16 && essence.toLowerCase() === 'application/json';
}

/**
 * The whole body, or TOO_LARGE as soon as it passes `limit` bytes, or ABORTED if the client left.
 * The listeners are inline and never removed: a settled promise ignores what comes after (the 'close'
 * that follows 'end'), and naming four closures per request costs more than the rest of the read.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE | typeof ABORTED> {
  // Stryker disable all: the body size limit is not in the interface (413 or 400 are both valid past it), and a client that left gets no answer
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
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    req.on('error', () => resolve(ABORTED));
    req.on('close', () => resolve(ABORTED));
  });
  // Stryker restore all
}

// After refusing a body, the rest is read and dropped so that the connection can be reused and the client
// reads the 413; how far a sender may go on is the server's concern (connections.ts).
// Stryker disable all: draining the rest of a refused body is transport: test/reference/connections.test.ts guards it
function drain(req: IncomingMessage): void {
  req.on('error', () => {});
  // Stryker restore all
  req.resume();
}
