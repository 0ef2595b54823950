import { parse } from 'lossless-json';
import { readJsonBytes } from '../text/json.ts';

/**
 * JSON as a verifier must read it: a key given twice with different values is refused (JSON.parse keeps
 * the last, other tools the first, so two readers would see two different claims). Numbers are plain.
 */
export function parseStrictJson(text: string | Uint8Array): unknown {
  // The suite's one JSON reading decides what is JSON: strict UTF-8, no key twice (even with equal
  // values), bounded depth. The value is then read with plain numbers, as the verifier compares them.
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const reading = readJsonBytes(bytes);
  if (!reading.ok) throw new Error(reading.reason);
  return parse(Buffer.from(bytes).toString('utf8'), null, (digits: string) => Number(digits));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
