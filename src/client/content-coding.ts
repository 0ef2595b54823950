import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** The body after its Content-Encoding is undone, or why it could not be (the target's failure). */
export type Decoded = { ok: true; bytes: Buffer } | { ok: false; reason: string; tooLarge?: true };

const DECODERS: Readonly<Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * Undoes the Content-Encoding: the suite sends no Accept-Encoding, which accepts any coding (RFC 9110
 * §12.5.3), so a server may compress. Decoding is HTTP, not repair: the decoded bytes are then judged
 * like any other. The decoded size has the same cap as the wire (a small gzip can inflate to gigabytes).
 */
export function decodeContent(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Decoded {
  // Nearly every answer: no coding, nothing to undo.
  if (contentEncoding === undefined || contentEncoding === '') return { ok: true, bytes };
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let out = bytes;
  // Codings are listed in the order they were applied: undo them last to first.
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return { ok: false, reason: `Content-Encoding ${JSON.stringify(coding.slice(0, 40))}, which the suite cannot decode` };
    try {
      out = decode(out, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        return {
          ok: false,
          reason: `a body that decodes (Content-Encoding ${coding}) to more than ${maxBytes} bytes, the most the suite reads`,
          tooLarge: true,
        };
      }
      return { ok: false, reason: `a body that is not valid ${coding} although Content-Encoding says so` };
    }
  }
  return { ok: true, bytes: out };
}
