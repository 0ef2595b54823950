import type { DsseEnvelope } from './attestation.ts';
import { isRecord } from './strict-json.ts';

/**
 * The attestation file is exactly one line, the envelope, with at most its final line feed: a blank or
 * whitespace line, a carriage return or a space around the JSON is unsigned text riding along.
 */
export function oneLine(text: string): string {
  const line = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lines = line.split('\n');
  if (lines.length !== 1) throw new Error(`${lines.length} lines, the file is exactly one (the envelope)`);
  if (line.trim() !== line || line.includes('\r')) throw new Error('whitespace around the envelope: the file is exactly one line of JSON');
  return line;
}

/**
 * What a DSSE envelope of this suite may hold: payloadType, payload and exactly one signature, whose
 * keyid is the trusted key's fingerprint. Anything else (a note, a second signature, a relabelled keyid)
 * is unsigned text a reader could take for part of the certificate.
 */
export function envelopeExtras(envelope: DsseEnvelope, fingerprint: string): string[] {
  const problems: string[] = [];
  const unknown = Object.keys(envelope).filter((k) => !['payloadType', 'payload', 'signatures'].includes(k));
  if (unknown.length > 0) problems.push(`unsigned fields in the envelope: ${unknown.join(', ')}`);
  const signatures: unknown[] = Array.isArray(envelope.signatures) ? envelope.signatures : [];
  if (signatures.length !== 1) problems.push(`${signatures.length} signatures: a bundle carries exactly one`);
  for (const signature of signatures) {
    if (!isRecord(signature)) {
      problems.push('a signature is not an object');
      continue;
    }
    const extra = Object.keys(signature).filter((k) => k !== 'keyid' && k !== 'sig');
    if (extra.length > 0) problems.push(`unsigned fields in a signature: ${extra.join(', ')}`);
    if (signature.keyid !== fingerprint) problems.push(`a signature's keyid is ${String(signature.keyid)}, not the signing key's fingerprint ${fingerprint}`);
  }
  return problems;
}
