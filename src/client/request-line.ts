import { HarnessError } from '../errors.ts';
import type { WireRequest } from './transport.ts';
import type { Query, RequestOptions, SendRequest } from './client-types.ts';

/** `limit=5&status=sold` from a query object; undefined values are left out, bigint kept exact. */
export function queryString(query: Query | undefined): string | undefined {
  if (!query) return undefined;
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return pairs.length > 0 ? pairs.join('&') : undefined;
}

/** Later headers replace earlier ones whatever their letter case, so a test's Content-Type wins. */
function mergeHeaders(...layers: Array<Record<string, string> | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      for (const existing of Object.keys(out)) {
        if (existing.toLowerCase() === name.toLowerCase()) delete out[existing];
      }
      out[name] = value;
    }
  }
  return out;
}

/**
 * The request as it goes on the wire, without Authorization (the client adds it, and only for the
 * base URL's origin). Credentials in `headers` are refused: they would bypass the report's redaction.
 */
export function buildWire(baseUrl: string, origin: string, request: SendRequest, options: RequestOptions): WireRequest {
  const query = [request.query, options.query].filter((q): q is string => q !== undefined && q !== '').join('&');
  const url = `${baseUrl}${request.path}${query ? `?${query}` : ''}`;
  let sameOrigin = false;
  try {
    sameOrigin = new URL(url).origin === origin;
  } catch {
    // Left false: the check below reports it.
  }
  if (!sameOrigin) throw new HarnessError('ERR_INTERNAL', `request path ${JSON.stringify(request.path)} leaves the target origin ${origin}`);
  const body = options.rawBody ?? request.body;
  const contentType = body !== undefined && options.contentType !== null ? { 'Content-Type': options.contentType ?? 'application/json' } : undefined;
  const headers = mergeHeaders(contentType, request.headers, options.headers);
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
    throw new HarnessError('ERR_INTERNAL', 'pass credentials with the auth option, not as a header, so they stay out of reports');
  }
  const wire: WireRequest = { method: request.method, url, headers };
  if (body !== undefined) wire.body = body;
  if (body !== undefined && options.bodyEncoding !== undefined) wire.encoding = options.bodyEncoding;
  if (options.absoluteForm === true) wire.requestTarget = url;
  else if (options.absoluteForm) {
    const scheme = url.indexOf('//');
    wire.requestTarget = `${url.slice(0, scheme + 2)}${options.absoluteForm.authority}${url.slice(url.indexOf('/', scheme + 2))}`;
  }
  if (body !== undefined && options.framing !== undefined) {
    wire.framing = options.framing;
    // Pieces without a length go chunked (undici adds Transfer-Encoding itself and refuses it as a header);
    // with Content-Length, the same bytes arrive in several writes.
    if (options.framing === 'split') headers['Content-Length'] = String(Buffer.byteLength(body, options.bodyEncoding ?? 'utf8'));
  }
  return wire;
}
