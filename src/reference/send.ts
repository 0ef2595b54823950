import type { ServerResponse } from 'node:http';
import { pushRateHeaders } from './rate-headers.ts';
import type { Reply } from './replies.ts';

export const JSON_TYPE = 'application/json';

export interface TransportSettings {
  retryAfterFormat: 'seconds' | 'http-date';
  /** Send the IETF RateLimit and RateLimit-Policy fields along with X-RateLimit-*. */
  ietfRateLimit: boolean;
  /** Leave out Content-Length so that node frames the body with chunked transfer coding. */
  chunked: boolean;
  connectionClose: boolean;
}

/** Writes a reply in one writeHead/end pair; the flat header array spares node an object walk. */
export function sendReply(res: ServerResponse, reply: Reply, transport: TransportSettings): void {
  const headers: string[] = [];
  const body = reply.body;
  if (body !== undefined) headers.push('content-type', reply.contentType ?? JSON_TYPE);
  if (!transport.chunked) headers.push('content-length', body === undefined ? '0' : String(Buffer.byteLength(body)));
  const rate = reply.rate;
  if (rate) {
    pushRateHeaders(headers, rate, transport.ietfRateLimit);
    if (rate.retryAfter !== undefined) headers.push('retry-after', formatRetryAfter(rate.retryAfter, rate.reset, transport));
  }
  const extra = reply.headers;
  if (extra) for (const name in extra) headers.push(name, extra[name] as string);
  if (transport.connectionClose && extra?.connection === undefined) headers.push('connection', 'close');
  res.writeHead(reply.status, headers);
  res.end(body);
}

function formatRetryAfter(seconds: number, reset: number, transport: TransportSettings): string {
  if (transport.retryAfterFormat === 'seconds') return String(seconds);
  // An HTTP-date has whole seconds; the reset second is the first moment the window has surely turned.
  return new Date(reset * 1000).toUTCString();
}
