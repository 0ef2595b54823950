/**
 * The one reading of an HTTP/1.x response's framing from its bytes (status line, fields, the body's
 * length, whether it ends the connection), apart from the connection that reads them (raw-http.ts).
 */

/** Bytes of a response head the reader accepts; past this the response is malformed. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Bytes of a body the reader keeps; past this it stops reading (the probe only needs the framing). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** One response as it came off the wire: what framed it, and whether it ends the connection. */
export interface RawResponse {
  status: number;
  /** Lower-case names; a repeated field is joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
  /** Interim 1xx responses read before it (legal, skipped). */
  interim: number;
  /** The body ran to the connection's close (no Content-Length, no chunked coding): the connection ends. */
  closeDelimited: boolean;
  /** The response said `Connection: close` (or is an HTTP/1.0 response without keep-alive). */
  connectionClose: boolean;
}

export type Parsed =
  { kind: 'incomplete' } | { kind: 'malformed'; reason: string } | { kind: 'complete'; length: number; response: Omit<RawResponse, 'interim'> };

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: [^\r\n]*)?$/;
const NO_BODY = new Set([204, 304]);
/** RFC 9110 §5.6.2's token: the characters a field name is made of. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;

/** One response at the start of `bytes`, if it is all there (`ended`: the connection closed after them). */
export function parseResponse(bytes: Buffer, ended: boolean): Parsed {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd === -1) {
    if (bytes.length > MAX_HEAD_BYTES) return { kind: 'malformed', reason: `no end of the response head within ${MAX_HEAD_BYTES} bytes` };
    if (bytes.length > 0 && !Buffer.from('HTTP/1.').subarray(0, bytes.length).equals(bytes.subarray(0, 7))) {
      return { kind: 'malformed', reason: 'bytes that do not start an HTTP/1.x status line' };
    }
    return { kind: 'incomplete' };
  }
  const lines = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const match = STATUS_LINE.exec(lines[0] ?? '');
  if (!match) return { kind: 'malformed', reason: 'bytes that do not start an HTTP/1.x status line' };
  const minor = match[1];
  const status = Number(match[2]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { kind: 'malformed', reason: `a header line without a field name: ${JSON.stringify(line.slice(0, 80))}` };
    // A field name is a token (RFC 9110 §5.1): a line such as `Not a name: value` is no header field, and
    // a client such as undici refuses the whole response for it. Whitespace before the colon is tolerated
    // (RFC 9112 §5.1 has a proxy remove it), whitespace inside the name is not.
    const name = line.slice(0, colon).trimEnd().toLowerCase();
    if (!FIELD_NAME.test(name)) return { kind: 'malformed', reason: `a header line whose field name is not a token: ${JSON.stringify(line.slice(0, 80))}` };
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const bodyStart = headEnd + 4;
  const options = (headers.connection ?? '').split(',').map((option) => option.trim().toLowerCase());
  // An HTTP/1.0 response closes its connection unless it says keep-alive (RFC 9112 §9.3).
  const connectionClose = options.includes('close') || (minor === '0' && !options.includes('keep-alive'));
  const head = { status, headers, connectionClose };
  if ((status >= 100 && status < 200) || NO_BODY.has(status)) {
    return { kind: 'complete', length: bodyStart, response: { ...head, body: Buffer.alloc(0), closeDelimited: false } };
  }
  const codings = headers['transfer-encoding'];
  if (codings !== undefined) {
    if (codings.split(',').at(-1)?.trim().toLowerCase() === 'chunked') return parseChunked(bytes, bodyStart, head);
    return untilClose(bytes, bodyStart, ended, head);
  }
  const length = headers['content-length'];
  if (length !== undefined) {
    const values = new Set(length.split(',').map((v) => v.trim()));
    const [only] = values;
    if (values.size !== 1 || only === undefined || !/^\d{1,15}$/.test(only))
      return { kind: 'malformed', reason: `an invalid Content-Length: ${JSON.stringify(length.slice(0, 80))}` };
    const size = Number(only);
    if (size > MAX_BODY_BYTES) return { kind: 'malformed', reason: `a Content-Length of ${size}, more than the probe reads` };
    if (bytes.length < bodyStart + size) return { kind: 'incomplete' };
    return { kind: 'complete', length: bodyStart + size, response: { ...head, body: bytes.subarray(bodyStart, bodyStart + size), closeDelimited: false } };
  }
  return untilClose(bytes, bodyStart, ended, head);
}

type Head = Pick<RawResponse, 'status' | 'headers' | 'connectionClose'>;

function untilClose(bytes: Buffer, bodyStart: number, ended: boolean, head: Head): Parsed {
  if (!ended)
    return bytes.length - bodyStart > MAX_BODY_BYTES
      ? { kind: 'malformed', reason: 'a body without length larger than the probe reads' }
      : { kind: 'incomplete' };
  return { kind: 'complete', length: bytes.length, response: { ...head, body: bytes.subarray(bodyStart), closeDelimited: true } };
}

/** A chunked body (RFC 9112 §7.1): size lines in hex (extensions ignored), data, CRLF; then trailers. */
function parseChunked(bytes: Buffer, start: number, head: Head): Parsed {
  const pieces: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd === -1) return { kind: 'incomplete' };
    const sizeText = bytes.subarray(at, lineEnd).toString('latin1').split(';')[0]?.trim() ?? '';
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) return { kind: 'malformed', reason: `an invalid chunk size: ${JSON.stringify(sizeText.slice(0, 40))}` };
    const size = Number.parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (size === 0) {
      // Trailer fields, then the empty line.
      for (;;) {
        const end = bytes.indexOf('\r\n', at);
        if (end === -1) return { kind: 'incomplete' };
        const empty = end === at;
        at = end + 2;
        if (empty) return { kind: 'complete', length: at, response: { ...head, body: Buffer.concat(pieces), closeDelimited: false } };
      }
    }
    if (bytes.length < at + size + 2) return { kind: 'incomplete' };
    pieces.push(bytes.subarray(at, at + size));
    if (bytes.subarray(at + size, at + size + 2).toString('latin1') !== '\r\n') return { kind: 'malformed', reason: 'a chunk not followed by CRLF' };
    at += size + 2;
    if (at - start > MAX_BODY_BYTES) return { kind: 'malformed', reason: 'a chunked body larger than the probe reads' };
  }
}

/**
 * The final response at the start of bytes read whole up to a connection's end or a response's end (the
 * log's record of an answer): interim 1xx responses skipped, as the connection's reader skips them.
 */
export function finalResponse(bytes: Buffer): Omit<RawResponse, 'interim'> | { malformed: string } {
  let rest = bytes;
  for (;;) {
    const parsed = parseResponse(rest, true);
    if (parsed.kind === 'incomplete') return { malformed: 'not a whole response' };
    if (parsed.kind === 'malformed') return { malformed: parsed.reason };
    const { status } = parsed.response;
    if (status < 100 || status >= 200 || status === 101) return parsed.response;
    rest = rest.subarray(parsed.length);
  }
}
