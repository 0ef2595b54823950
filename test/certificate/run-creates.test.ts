import { describe, expect, it } from 'vitest';
import type { RecordedEntry } from '../../src/certificate/rejudge-har.ts';
import { loggedCreates } from '../../src/certificate/run-creates.ts';

/**
 * Rejudge's reading of the run's creates (CON-003's rule `added-pets-listed`). A create whose answer the
 * log holds redacted once counted as no create at all when redaction had taken its id: a forged pass of
 * a list without that pet then re-judged as holding. The target can make its own answers redact (text
 * like the key in them), so such a create is one the log cannot read, as a cut one is.
 */
function entry(seq: number, text: string, flags: Partial<RecordedEntry> = {}): RecordedEntry {
  return {
    seq,
    operationId: 'createPet',
    status: 201,
    keyVariable: 'API_KEY',
    raw: false,
    url: 'http://127.0.0.1:1/v1/pets',
    startedAt: 10 * seq,
    durationMs: 1,
    text,
    bodyCut: false,
    bodyInexact: false,
    redacted: false,
    summarised: false,
    ...flags,
  } as RecordedEntry;
}

describe("rejudge's reading of the run's creates", () => {
  it('reads a whole create as its pet, and a redacted one as a create the log cannot read', () => {
    const creates = loggedCreates([
      entry(1, '{"id":5,"name":"a","categoryId":1,"status":"sold"}'),
      entry(2, '{"id":1***,"name":"b","categoryId":1,"status":"sold"}', { redacted: true }),
      // Redaction that left the id readable still leaves the record unproven: the status may be what it took.
      entry(3, '{"id":7,"name":"***","categoryId":1,"status":"sold"}', { redacted: true }),
    ]);
    expect(creates.pets.map((pet) => [pet.id, pet.status])).toEqual([[5n, 'sold']]);
    expect(creates.unreadable.map((create) => create.seq)).toEqual([2, 3]);
    expect(creates.summarised).toBe(false);
  });

  it('reads a cut create as one the log cannot read, as before', () => {
    const creates = loggedCreates([entry(4, '{"id":9,"name":"', { bodyCut: true })]);
    expect(creates.pets).toEqual([]);
    expect(creates.unreadable.map((create) => create.seq)).toEqual([4]);
  });
});
