import type { RecordedEntry } from '../../src/certificate/rejudge-har.ts';

/** An entry of the log as rejudge reads it: an answered exchange of `operationId`, whole, unless `extra` says otherwise. */
export function recordedEntry(seq: number, operationId: string, status: number, extra: Partial<RecordedEntry> = {}): RecordedEntry {
  return {
    seq,
    startedAt: 0,
    durationMs: 1,
    operationId,
    method: operationId === 'createPet' ? 'POST' : 'GET',
    url: 'https://impl.example/v1/pets',
    status,
    headers: {},
    text: '',
    requestText: undefined,
    bodyCut: false,
    bodyInexact: false,
    raw: false,
    redacted: false,
    summarised: false,
    transportError: false,
    retries: 0,
    size: 0,
    hash: '',
    ...extra,
  };
}
