/** Replaces the key in any string bound for a report, log line, error message or curl line. */
export type Redact = (text: string) => string;

export const REDACTED = '***';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The last guard before anything is recorded: the key, in any letter case (tests send it upper- and
 * lower-cased on purpose), percent-encoded, base64-encoded (Basic), and anything that starts with a large
 * part of it (the prefixes and same-shape keys the auth tests send, echoed back by a hostile target)
 * becomes `***`. Built once per client.
 */
export function createRedactor(secret: string): Redact {
  if (secret.length === 0) return (text) => text;
  const prefix = secret.slice(0, Math.min(secret.length, Math.max(8, Math.floor(secret.length / 2))));
  const base64 = (text: string) => Buffer.from(text).toString('base64').replace(/=+$/, '');
  // The prefix, and as many key-like characters after it as the rest of the key could hold.
  const rest = secret.length - prefix.length + 2;
  // The exact forms come first, so a key repeated back to back is matched key by key.
  const exact = [secret, encodeURIComponent(secret), base64(secret), base64(`${secret}:`)].map(escapeRegExp);
  const forms = [...exact, `${escapeRegExp(prefix)}[\\w-]{0,${rest}}`];
  const pattern = new RegExp(forms.join('|'), 'gi');
  return (text) => (text.length < prefix.length ? text : text.replace(pattern, REDACTED));
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
