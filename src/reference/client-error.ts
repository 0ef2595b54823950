import { STATUS_CODES } from 'node:http';
import { rateHeaders } from './rate-headers.ts';
import type { Reply } from './replies.ts';

/**
 * A request node could not parse never reaches the pipeline; node's default answer is a bare 400
 * without the Error body or the rate-limit headers, which every response must carry. This writes
 * the full reply on the raw socket, then closes it (the connection's framing is lost).
 */
export function rawResponse(reply: Reply, ietfRateLimit: boolean): string {
  const body = reply.body ?? '';
  const lines = [
    `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status] ?? 'Error'}`,
    `content-type: ${reply.contentType ?? 'application/json'}`,
    `content-length: ${Buffer.byteLength(body)}`,
  ];
  if (reply.rate) {
    const pairs = rateHeaders(reply.rate, ietfRateLimit);
    for (let i = 0; i < pairs.length; i += 2) lines.push(`${pairs[i]}: ${pairs[i + 1]}`);
    if (reply.rate.retryAfter !== undefined) lines.push(`retry-after: ${reply.rate.retryAfter}`);
  }
  lines.push(`date: ${new Date().toUTCString()}`, 'connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The status for a parse failure: 431 for oversized headers, 408 for a slow client, else 400. */
export function clientErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}
