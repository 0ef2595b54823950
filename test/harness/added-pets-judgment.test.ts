import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/client/client-types.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { isConformanceFailure } from '../../src/errors.ts';
import { createAddedPetsLedger } from '../../src/harness/added-pets.ts';
import type { FileRun } from '../../src/harness/file-run.ts';
import { createContext } from '../../src/harness/test-context.ts';
import type { ConformanceMeta } from '../../src/report/test-meta.ts';
import { contract } from '../checks/context.ts';

/**
 * CON-003 holds every complete list to the pets the run added, read from the workers' ledger. A create
 * whose record redaction made unreadable (a target can make its answer hold text like the key, or spell
 * the key's bytes in an id) once left the ledger without that pet: a target could hide pets from the
 * ledger and drop them from lists, and CON-003 passed. The pet is now read as received: a list that drops
 * it fails, and a list that holds it is a pass the log cannot prove, so CON-003 is untested.
 */
const ORIGIN = 'http://127.0.0.1:1';

function create(seq: number, body: string, redacted: boolean): Exchange {
  return {
    seq,
    startedAt: 10,
    durationMs: 1,
    operationId: 'createPet',
    request: { method: 'POST', url: `${ORIGIN}/v1/pets`, headers: {} },
    response: { status: 201, headers: {}, body, ...(redacted ? { redacted } : {}) },
    curl: '',
  };
}

/** A complete list of sold animals (fewer than its limit), asked for after the creates were answered. */
function soldList(ids: readonly number[]): ApiResponse {
  const url = `${ORIGIN}/v1/pets?status=sold&limit=100`;
  const text = JSON.stringify(ids.map((id) => ({ id, name: 'a', categoryId: 1, status: 'sold' })));
  const exchange: Exchange = {
    seq: 20,
    startedAt: 100,
    durationMs: 1,
    operationId: 'listPets',
    request: { method: 'GET', url, headers: {} },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: text },
    curl: '',
  };
  return {
    status: 200,
    headers: exchange.response!.headers,
    text,
    body: JSON.parse(text),
    isJson: true,
    exchange,
    findings: [],
    sent: { url, body: undefined },
  };
}

describe("CON-003's judgment of a create the log does not keep whole", () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function judged(listed: readonly number[]): { meta: ConformanceMeta; failure: string | undefined } {
    dir = mkdtempSync(join(tmpdir(), 'added-pets-judgment-'));
    const addedPets = createAddedPetsLedger(join(dir, 'added-pets.ledger'), true);
    // Pet 7's record lost its id to redaction; pet 8's record is whole.
    addedPets.record(create(1, '{"id":***,"name":"a","categoryId":1,"status":"sold"}', true), { body: { id: 7, name: 'a', categoryId: 1, status: 'sold' } });
    addedPets.record(create(2, '{"id":8,"name":"b","categoryId":1,"status":"sold"}', false), { body: { id: 8, name: 'b', categoryId: 1, status: 'sold' } });
    const fileRun = { run: { seed: 1, runId: 'run' }, contract, addedPets, petSources: new Map(), asSent: new Map() } as unknown as FileRun;
    const requirement = loadCatalog().requirements.find((r) => r.id === 'CON-003')!;
    const meta = { requirementId: 'CON-003', exchanges: [], findings: [] } as unknown as ConformanceMeta;
    const { ctx } = createContext(fileRun, requirement, meta, 'CON-003', new AbortController().signal, undefined);
    try {
      ctx.judge('added-pets-listed', soldList(listed), {}, 'the list of sold animals');
      return { meta, failure: undefined };
    } catch (error) {
      if (!isConformanceFailure(error)) throw error;
      return { meta, failure: error.message };
    }
  }

  it('fails a complete list that drops the pet, read as the client received it', () => {
    const { failure } = judged([8]);
    expect(failure).toMatch(/1 of them missing \(createPet acknowledged each\): id 7/);
  });

  it('leaves a list that holds it untested: the log cannot prove the pass', () => {
    const { meta, failure } = judged([7, 8]);
    expect(failure).toBeUndefined();
    expect(meta.unobservable).toMatchObject({ code: 'unprovable' });
    expect(meta.unobservable?.reason).toMatch(/does not keep whole the Pet of a create the run made .*added-pets-listed.*cannot prove this pass/);
  });
});
