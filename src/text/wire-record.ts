import { createHash } from 'node:crypto';
import { decodeUtf8 } from './utf8.ts';

/** The client's redactor: the key, in every form, replaced in text. */
type Redact = (text: string) => string;

/** Bytes of a request or an answer the log keeps of a raw exchange; past this it is cut, its whole size kept. */
export const WIRE_KEPT_BYTES = 16 * 1024;

/**
 * Bytes as the log keeps them: UTF-8 text, or base64 with their sha256 when they are not UTF-8. `redacted`:
 * redaction changed them (text like the key became ***), so the log holds other bytes than the wire carried.
 */
export type WireBytes = ({ text: string } | { base64: string; sha256: string }) & { size: number; cut?: true; redacted?: true };

/** Which probe sent a raw exchange, and its place in what that probe writes. */
export type WirePlace =
  /** HTTP-001's framing probe: a request alone, the two of a pipelined write, or one after an answer that said close. */
  | 'lone'
  | 'first'
  | 'second'
  | 'after-close'
  /** HTTP-001's close probe: the oversized upload, and the request written after it. */
  | 'upload'
  | 'after-upload'
  /** HTTP-002's odd requests: the answer to the request, and what the connection gave after it. */
  | 'odd'
  | 'odd-next';

/**
 * What a raw exchange went over and what was read, as the log keeps it (HAR `_wire`): the request's
 * bytes (the key redacted), the answer's bytes as read (interim responses included), how the reading
 * ended, and the connection the exchange used. The rules of HTTP-001 and HTTP-002 judge these records.
 */
export interface WireRecord {
  place: WirePlace;
  /** The probe's run (1, or 2 when a first run lost a request and it ran again). */
  run: number;
  /** The connection, numbered from 1 within one probe run: a new one after the target closed one. */
  connection: number;
  sent: WireBytes;
  /** The answer as read: a whole response, or what came before the reading ended. */
  read: WireBytes;
  /** How reading the answer ended: a whole response, the target closed, nothing in time, not HTTP, no connection. */
  ended: 'response' | 'closed' | 'timeout' | 'malformed' | 'unreachable';
}

/** Bytes (Latin-1 on the wire) as the log keeps them: redacted, cut at WIRE_KEPT_BYTES. */
export function wireBytes(bytes: Buffer, redact: Redact): WireBytes {
  const size = bytes.length;
  const kept = bytes.subarray(0, WIRE_KEPT_BYTES);
  const cut = size > kept.length ? { cut: true as const } : {};
  const utf8 = decodeUtf8(kept);
  if (utf8.ok) {
    const text = redact(utf8.text);
    return { text, size, ...cut, ...(text !== utf8.text ? { redacted: true as const } : {}) };
  }
  // Not UTF-8: each byte is one Latin-1 character, so the key is found in it and the bytes come back whole.
  const latin1 = kept.toString('latin1');
  const shown = redact(latin1);
  const redacted = Buffer.from(shown, 'latin1');
  const changed = shown !== latin1 ? { redacted: true as const } : {};
  return { base64: redacted.toString('base64'), sha256: createHash('sha256').update(redacted).digest('hex'), size, ...cut, ...changed };
}

/** The bytes a record keeps, or why they cannot be read back exactly (cut, or not matching their hash). */
export function keptBytes(record: WireBytes): { bytes: Buffer } | { problem: string } {
  if (record.cut) return { problem: `the log keeps ${WIRE_KEPT_BYTES} of its ${record.size} bytes` };
  if ('text' in record) return { bytes: Buffer.from(record.text, 'utf8') };
  const bytes = Buffer.from(record.base64, 'base64');
  return createHash('sha256').update(bytes).digest('hex') === record.sha256 ? { bytes } : { problem: 'its bytes do not match their sha256' };
}

/** A record as the log holds it, or undefined when it is not one of this suite's (read defensively: the log may be forged). */
export function readWireRecord(value: unknown): WireRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const sent = readWireBytes(v.sent);
  const read = readWireBytes(v.read);
  if (!sent || !read || !PLACES.has(v.place as WirePlace) || !ENDINGS.has(v.ended as WireRecord['ended'])) return undefined;
  if (!Number.isSafeInteger(v.run) || !Number.isSafeInteger(v.connection)) return undefined;
  return { place: v.place as WirePlace, run: v.run as number, connection: v.connection as number, sent, read, ended: v.ended as WireRecord['ended'] };
}

function readWireBytes(value: unknown): WireBytes | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!Number.isSafeInteger(v.size) || (v.size as number) < 0) return undefined;
  const cut = v.cut === true ? { cut: true as const } : {};
  if (typeof v.text === 'string') return { text: v.text, size: v.size as number, ...cut };
  if (typeof v.base64 === 'string' && typeof v.sha256 === 'string') return { base64: v.base64, sha256: v.sha256, size: v.size as number, ...cut };
  return undefined;
}

const PLACES: ReadonlySet<WirePlace> = new Set(['lone', 'first', 'second', 'after-close', 'upload', 'after-upload', 'odd', 'odd-next']);
const ENDINGS: ReadonlySet<WireRecord['ended']> = new Set(['response', 'closed', 'timeout', 'malformed', 'unreachable']);
