import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createContract, loadSpec, SPEC_PATH } from '../../src/contract/index.ts';
import { parseJson } from '../../src/text/json.ts';

describe('spec/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (official schema, via @seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(SPEC_PATH);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('the validator itself rejects a broken copy (so the check above can fail)', async () => {
    const broken = loadSpec().document as unknown as Record<string, unknown>;
    const copy = structuredClone(broken);
    delete copy.info;
    (copy.paths as Record<string, unknown>)['/pets'] = { get: { responses: 'not an object' } };
    const result = await new Validator().validate(copy as Parameters<Validator["validate"]>[0]);
    expect(result.valid).toBe(false);
  });

  it('states interface version 1.0.0, the /v1 servers and bearer auth on every operation', () => {
    const { document } = loadSpec();
    expect(document.info.version).toBe('1.0.0');
    const servers = document.servers as Array<{ url: string }>;
    expect(servers).toHaveLength(2);
    for (const server of servers) expect(server.url).toMatch(/\/v1$/);
    const contract = createContract();
    expect(contract.operations.map((o) => o.operationId).sort()).toEqual(['createPet', 'getPet', 'listPets']);
    for (const path of Object.values(document.paths)) {
      for (const op of Object.values(path)) expect(op.security).toEqual([{ bearerAuth: [] }]);
    }
  });

  it('documents 429 with Retry-After on every operation and rate-limit headers on every response', () => {
    const contract = createContract();
    for (const op of contract.operations) {
      const tooMany = op.responses.find((r) => r.status === '429');
      expect(tooMany?.headers, op.operationId).toContain('Retry-After');
      for (const response of op.responses) {
        expect(response.headers, `${op.operationId} ${response.status}`).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
      }
    }
  });

  it('marks getPet deprecated with the 5 December 2030 removal date', () => {
    const getPet = createContract().operation('getPet');
    expect(getPet.deprecated).toBe(true);
    expect(getPet.sunset).toBe('2030-12-05T00:00:00Z');
  });

  it('lists limit 1..100 default 20 and the PetStatus filter on listPets', () => {
    const listPets = loadSpec().document.paths['/pets']?.get;
    const limit = listPets?.parameters?.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    const status = listPets?.parameters?.find((p) => p.name === 'status');
    expect(status?.schema).toEqual({ $ref: '#/components/schemas/PetStatus' });
  });
});

describe('contract validators', () => {
  const contract = createContract();
  const pet = (text: string) => contract.validate('#/components/schemas/Pet', parseJson(text));

  it('accepts int64 extremes exactly and rejects one past them', () => {
    expect(pet('{"id":9223372036854775807,"name":"a","categoryId":-9223372036854775808}')).toEqual([]);
    expect(pet('{"id":9223372036854775808,"name":"a","categoryId":1}')[0]).toMatchObject({ instancePath: '/id' });
    expect(pet('{"id":1,"name":"a","categoryId":-9223372036854775809}')[0]).toMatchObject({ instancePath: '/categoryId' });
  });

  it('rejects floats, numeric strings and statuses outside the enum, and allows extra fields', () => {
    expect(pet('{"id":1,"name":"a","categoryId":1.5}')[0]).toMatchObject({ instancePath: '/categoryId' });
    expect(pet('{"id":"1","name":"a","categoryId":1}')[0]).toMatchObject({ instancePath: '/id' });
    expect(pet('{"id":1,"name":"a","categoryId":1,"status":"lost"}')[0]).toMatchObject({ keyword: 'enum' });
    expect(pet('{"id":1,"name":"a","categoryId":1,"extra":true}')).toEqual([]);
  });

  it('requires every Error field', () => {
    expect(contract.validate('#/components/schemas/Error', { code: 'x', message: 'y', status: 400 })).toEqual([]);
    expect(contract.validate('#/components/schemas/Error', { code: 'x', status: 400 })).not.toEqual([]);
    expect(contract.validate('#/components/schemas/Error', { code: 'x', message: 'y', status: '400' })).not.toEqual([]);
  });

  it('compiles every component schema in strict mode, and names an unknown one', () => {
    // The contract compiles a schema at its first use: each is used here, so a keyword strict mode refuses
    // fails this test rather than a run.
    const fresh = createContract();
    for (const name of Object.keys(loadSpec().document.components.schemas)) {
      expect(() => fresh.validate(`#/components/schemas/${name}`, {}), name).not.toThrow();
    }
    expect(() => fresh.validate('#/components/schemas/Nothing', {})).toThrow(/no schema #\/components\/schemas\/Nothing/);
    expect(() => fresh.validate('#/components/responses/NotFound', {})).toThrow(/no schema/);
  });

  it('refuses a spec whose schema uses a keyword strict mode does not know, at its first use', () => {
    const spec = loadSpec();
    const document = structuredClone(spec.document);
    document.components.schemas.Pet = { ...document.components.schemas.Pet, madeUpKeyword: true };
    const broken = createContract({ ...spec, document });
    expect(() => broken.validate('#/components/schemas/Pet', {})).toThrow(/madeUpKeyword/);
  });
});
