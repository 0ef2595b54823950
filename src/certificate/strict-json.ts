import { parse } from 'lossless-json';

/**
 * JSON as a verifier must read it: a key given twice with different values is refused (JSON.parse keeps
 * the last, other tools the first, so two readers would see two different claims). Numbers are plain.
 */
export function parseStrictJson(text: string): unknown {
  return parse(text, null, (digits: string) => Number(digits));
}

/** One canonical text for a JSON value (keys sorted at every level): equal claims compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
