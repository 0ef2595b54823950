import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import { createAddedPetsLedger, readAddedPets, recordAddedPet } from '../../src/harness/added-pets.ts';

function exchange(operationId: string | undefined, status: number, body: string | undefined, bodyTruncated = false, redacted = false): Exchange {
  return {
    seq: 1,
    startedAt: 0,
    durationMs: 1,
    operationId,
    request: { method: 'POST', url: 'http://127.0.0.1/v1/pets', headers: {} },
    response: {
      status,
      headers: {},
      ...(body === undefined ? {} : { body }),
      ...(bodyTruncated ? { bodyTruncated } : {}),
      ...(redacted ? { redacted } : {}),
    },
    curl: '',
  };
}

describe('the ledger of added pets (CON-003)', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const ledger = () => {
    dir = mkdtempSync(join(tmpdir(), 'added-pets-'));
    return join(dir, 'added-pets.ledger');
  };

  it('records each pet a createPet 201 acknowledged, exactly (int64 past 2^53, a status with spaces and a newline)', () => {
    const path = ledger();
    recordAddedPet(path, exchange('createPet', 201, '{"id":9223372036854775807,"name":"a","categoryId":1,"status":"pending"}'));
    recordAddedPet(path, exchange('createPet', 201, '{"id":-5,"name":"b","categoryId":1,"status":"x y\\nz"}'));
    recordAddedPet(path, exchange('createPet', 201, '{"id":7,"name":"c","categoryId":1}'));
    expect(readAddedPets(path)).toEqual([
      { id: 9223372036854775807n, status: 'pending', answeredAt: 1 },
      { id: -5n, status: 'x y\nz', answeredAt: 1 },
      { id: 7n, status: undefined, answeredAt: 1 },
    ]);
  });

  it('records nothing that is not an acknowledged pet: another operation, another status, no Pet, a cut or broken body', () => {
    const path = ledger();
    const pet = '{"id":1,"name":"a","categoryId":1}';
    recordAddedPet(path, exchange('getPet', 201, pet));
    recordAddedPet(path, exchange('createPet', 400, pet));
    recordAddedPet(path, exchange('createPet', 202, pet));
    recordAddedPet(path, exchange('createPet', 201, '{"id":"1","name":"a","categoryId":1}'));
    recordAddedPet(path, exchange('createPet', 201, pet, true));
    recordAddedPet(path, exchange('createPet', 201, '{"id":1,'));
    recordAddedPet(path, exchange('createPet', 201, undefined));
    expect(readAddedPets(path)).toEqual([]);
  });

  it('records the pet of a 200 that carries one: a server answering createPet 200 stored it all the same', () => {
    const path = ledger();
    recordAddedPet(path, exchange('createPet', 200, '{"id":5,"name":"a","categoryId":1,"status":"sold"}'));
    expect(readAddedPets(path).map((pet) => [pet.id, pet.status])).toEqual([[5n, 'sold']]);
  });

  it('counts a pet acknowledged twice once, with the status it was last acknowledged with; no ledger is no pets', () => {
    const path = ledger();
    expect(readAddedPets(path)).toEqual([]);
    recordAddedPet(path, exchange('createPet', 201, '{"id":3,"name":"a","categoryId":1,"status":"sold"}'));
    recordAddedPet(path, exchange('createPet', 201, '{"id":3,"name":"a","categoryId":1,"status":"sold"}'));
    expect(readAddedPets(path)).toEqual([{ id: 3n, status: 'sold', answeredAt: 1 }]);
  });

  it('batched, reads its own pets at once and writes them only at flush, after what other files wrote', () => {
    const path = ledger();
    const batched = createAddedPetsLedger(path, true);
    batched.record(exchange('createPet', 201, '{"id":1,"name":"a","categoryId":1}'));
    recordAddedPet(path, exchange('createPet', 201, '{"id":2,"name":"b","categoryId":1}'));
    expect(batched.read().map((pet) => pet.id)).toEqual([2n, 1n]);
    expect(readAddedPets(path).map((pet) => pet.id)).toEqual([2n]);
    batched.flush();
    batched.flush();
    expect(readAddedPets(path).map((pet) => pet.id)).toEqual([2n, 1n]);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
  });

  it('reads a create whose record is redacted or cut as the client received it, marked as one the log does not keep whole', () => {
    const path = ledger();
    const direct = createAddedPetsLedger(path, false);
    // Redaction made the record's id unreadable ("1***"): the answer as received still names pet 17.
    const redacted = { ...exchange('createPet', 201, '{"id":1***,"name":"a","categoryId":1}', false, true), seq: 4 };
    direct.record(redacted, { body: { id: 17n, name: 'a', categoryId: 1n, status: 'sold' } });
    const cut = { ...exchange('createPet', 201, '{"id":18,"name":"', true), seq: 5 };
    direct.record(cut, { body: { id: 18, name: 'b'.repeat(5000), categoryId: 1 } });
    direct.record(exchange('createPet', 201, '{"id":19,"name":"c","categoryId":1}'), { body: { id: 99, name: 'c', categoryId: 1 } });
    expect(direct.read()).toEqual([
      { id: 17n, status: 'sold', answeredAt: 1, unkept: 4 },
      { id: 18n, status: undefined, answeredAt: 1, unkept: 5 },
      // A record kept whole is read from the record, as rejudge reads it.
      { id: 19n, status: undefined, answeredAt: 1 },
    ]);
    expect(direct.creates().unreadable).toEqual([]);
  });

  it('marks a create whose record is redacted and whose answer was not a Pet even as received, so no pass rests on it', () => {
    const path = ledger();
    const direct = createAddedPetsLedger(path, true);
    direct.record({ ...exchange('createPet', 201, '{"id":***}', false, true), seq: 9 }, { body: { id: 'x' } });
    direct.record({ ...exchange('createPet', 201, '{"id":***}', false, true), seq: 10 });
    expect(direct.read()).toEqual([]);
    expect(direct.creates().unreadable).toEqual([
      { seq: 9, answeredAt: 1 },
      { seq: 10, answeredAt: 1 },
    ]);
  });

  it('keeps a pet marked once any of its creates is one the log does not keep whole', () => {
    const path = ledger();
    const direct = createAddedPetsLedger(path, false);
    direct.record({ ...exchange('createPet', 201, '{"id":***}', false, true), seq: 2 }, { body: { id: 3, name: 'a', categoryId: 1 } });
    direct.record(exchange('createPet', 201, '{"id":3,"name":"a","categoryId":1}'));
    expect(direct.read()).toEqual([{ id: 3n, status: undefined, answeredAt: 1, unkept: 2 }]);
  });

  it('unbatched, writes each pet as it is recorded', () => {
    const path = ledger();
    const direct = createAddedPetsLedger(path, false);
    direct.record(exchange('createPet', 201, '{"id":1,"name":"a","categoryId":1}'));
    expect(readAddedPets(path).map((pet) => pet.id)).toEqual([1n]);
    expect(direct.read()).toEqual(readAddedPets(path));
  });
});
