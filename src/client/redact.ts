/** Replaces the key in any string bound for a report, log line, error message or curl line. */
export type Redact = (text: string) => string;

export const REDACTED = '***';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The last guard before anything is recorded: every occurrence of the key, in any letter case (tests send
 * it upper- and lower-cased on purpose) and percent-encoded, becomes `***`. Built once per client.
 */
export function createRedactor(secret: string): Redact {
  if (secret.length === 0) return (text) => text;
  const forms = new Set([secret, encodeURIComponent(secret)]);
  const pattern = new RegExp([...forms].map(escapeRegExp).join('|'), 'gi');
  const shortest = Math.min(...[...forms].map((f) => f.length));
  return (text) => (text.length < shortest ? text : text.replace(pattern, REDACTED));
}

/** Values of a header map, redacted. */
export function redactHeaders(headers: Readonly<Record<string, string>>, redact: Redact): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = redact(value);
  return out;
}

export const RECORDED_BODY_CHARS = 4096;

/** Longer than any key; a key split by the scan window can only sit in this many trailing chars. */
const KEY_SPAN = 1024;

/**
 * Redacts, then cuts to RECORDED_BODY_CHARS. Redacting first matters: a cut could split the key and leave
 * a prefix no pattern matches. Only a window somewhat longer than the cut is scanned, so a 2 MiB body
 * costs little; the window grows when redaction shrank it so much that its split tail could reach the cut.
 */
export function recordedBody(text: string, redact: Redact, max = RECORDED_BODY_CHARS): { body: string; truncated: boolean } {
  let size = max + 2 * KEY_SPAN;
  let clean = redact(text.slice(0, size));
  while (size < text.length && clean.length < max + KEY_SPAN) {
    size *= 4;
    clean = redact(text.slice(0, size));
  }
  if (size >= text.length && clean.length <= max) return { body: clean, truncated: false };
  let end = max;
  // Do not leave half a surrogate pair at the end.
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { body: clean.slice(0, end), truncated: true };
}
