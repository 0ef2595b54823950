/** Bytes decoded as UTF-8, or where they stop being UTF-8. */
export type Utf8Reading = { ok: true; text: string } | { ok: false; offset: number; byte: number };

/**
 * Strict UTF-8 (RFC 3629): no replacement characters, no overlong forms, no surrogates. A byte-order
 * mark is kept as U+FEFF, so JSON text that starts with one is judged, not silently repaired.
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Reading {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    const offset = firstInvalidByte(bytes);
    return { ok: false, offset, byte: bytes[offset] ?? 0 };
  }
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
export function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < length; k += 1) {
      const next = bytes[i + k];
      if (next === undefined) return i;
      if (k === 1 ? next < low || next > high : next < 0x80 || next > 0xbf) return i + k;
    }
    i += length;
  }
  return bytes.length;
}
