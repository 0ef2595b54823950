import type { buildConnector } from 'undici';
import type { SocketAdapter } from './network-settings.ts';

/**
 * undici writes every request head the same way: the request line, a lower-case `host`, then
 * `connection: keep-alive`, the request's fields, a lower-case `content-length`. No other client does
 * (curl, browsers and Python write `Host`, and curl no `Connection` at all), so a target can tell the
 * suite's traffic from everyone's by that alone. The run's connections rewrite those three fields as
 * curl writes them: `Host` first, no `Connection: keep-alive` (HTTP/1.1 keeps connections open by
 * default; a `close` is kept, as `Connection: close`), `Content-Length`. Nothing else changes: the
 * request's own fields keep their order and letter case, and the bytes mean the same to any server.
 */
const UNDICI_HEAD = /^([A-Z]+ [^\r\n]+ HTTP\/1\.1\r\n)host: ([^\r\n]*)\r\nconnection: (keep-alive|close)\r\n/;

/** The head as curl would write its fields; a string that is no undici request head is returned as it is. */
export function shapeHead(head: string): string {
  const match = UNDICI_HEAD.exec(head);
  if (!match) return head;
  const [whole, requestLine, host, connection] = match;
  const rest = head.slice(whole.length).replace(/(^|\r\n)content-length: /, '$1Content-Length: ');
  return `${requestLine}Host: ${host}\r\n${connection === 'close' ? 'Connection: close\r\n' : ''}${rest}`;
}

/** Sockets whose request heads go out in curl's shape (see shapeHead). */
export const curlShapedHeads: SocketAdapter =
  (connect: buildConnector.connector): buildConnector.connector =>
  (options, callback) =>
    connect(options, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('no socket'), null);
      const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
      socket.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? shapeHead(chunk) : chunk, ...rest)) as typeof socket.write;
      return callback(null, socket);
    });
