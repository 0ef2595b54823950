import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NAME_LIMIT, arbitraryFromSchema, int64, queryArbitrary, taggedName, type SchemaValue } from '../../src/arbitraries/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { INT64_MAX, INT64_MIN } from '../../src/text/json.ts';

const contract = createContract();
const TAG = 'conformance-0123abcd SCH-006 #12';
const SAMPLES = 1000;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- the test looks for control characters on purpose
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

type Body = Record<string, SchemaValue>;
const sample = (arbitrary: fc.Arbitrary<SchemaValue>, n = SAMPLES) => fc.sample(arbitrary, { numRuns: n, seed: 42 }) as Body[];

describe('arbitraryFromSchema', () => {
  it(`every generated NewPet (${SAMPLES}) is valid against the spec`, () => {
    for (const pet of sample(arbitraryFromSchema(contract, '#/components/schemas/NewPet', { nameTag: TAG }))) {
      expect(
        contract.validate('#/components/schemas/NewPet', pet),
        JSON.stringify(pet, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)),
      ).toEqual([]);
    }
  });

  it('every generated Pet (allOf of NewPet and id) is valid, with an int64 id', () => {
    for (const pet of sample(arbitraryFromSchema(contract, '#/components/schemas/Pet', { nameTag: TAG }), 300)) {
      expect(contract.validate('#/components/schemas/Pet', pet)).toEqual([]);
      expect(typeof pet.id).toBe('bigint');
    }
  });

  it('names are tagged, at most 64 code units, without lone surrogates or control characters', () => {
    const names = sample(arbitraryFromSchema(contract, '#/components/schemas/NewPet', { nameTag: TAG })).map((p) => p.name as string);
    for (const name of names) {
      expect(name.startsWith(`${TAG} `)).toBe(true);
      expect(name.length).toBeLessThanOrEqual(64);
      expect(LONE_SURROGATE.test(name)).toBe(false);
      expect(CONTROL.test(name)).toBe(false);
    }
    // Names go beyond ASCII: astral characters (emoji) and quotes appear.
    expect(names.some((n) => /[\u{10000}-\u{10ffff}]/u.test(n))).toBe(true);
    expect(names.some((n) => n.slice(TAG.length).includes('"'))).toBe(true);
  });

  it('a long tag shortens the generated part so the whole name still fits', () => {
    const tag = 'x'.repeat(DEFAULT_NAME_LIMIT - 4);
    for (const name of fc.sample(taggedName({ tag }), 200)) expect(name.length).toBeLessThanOrEqual(DEFAULT_NAME_LIMIT);
    expect(() => taggedName({ tag: 'x'.repeat(DEFAULT_NAME_LIMIT), minGeneratedLength: 1 })).toThrow(RangeError);
  });

  it('longNames gives valid NewPets whose names go beyond the common bound of 50 code units, up to 256', () => {
    for (const pet of sample(arbitraryFromSchema(contract, '#/components/schemas/NewPet', { nameTag: TAG, longNames: true }), 300)) {
      expect(contract.validate('#/components/schemas/NewPet', pet)).toEqual([]);
      const name = pet.name as string;
      expect(name.startsWith(`${TAG} `) && name.length > DEFAULT_NAME_LIMIT && name.length <= 256 && !LONE_SURROGATE.test(name)).toBe(true);
    }
  });

  it('refuses to generate an untagged name (every created pet must be recognisable)', () => {
    expect(() => arbitraryFromSchema(contract, '#/components/schemas/NewPet')).toThrow(/nameTag/);
  });

  it('categoryId covers the int64 edges and stays in range; categoryIds restrict it', () => {
    const ids = sample(arbitraryFromSchema(contract, '#/components/schemas/NewPet', { nameTag: TAG })).map((p) => p.categoryId as bigint);
    for (const edge of [0n, INT64_MAX, INT64_MIN, 2n ** 53n + 1n, -(2n ** 53n + 1n)]) expect(ids).toContain(edge);
    for (const id of ids) expect(id >= INT64_MIN && id <= INT64_MAX).toBe(true);
    const restricted = sample(arbitraryFromSchema(contract, '#/components/schemas/NewPet', { nameTag: TAG, categoryIds: [7n, 9n] }), 200);
    expect(new Set(restricted.map((p) => p.categoryId))).toEqual(new Set([7n, 9n]));
  });

  it('withStatus decides whether status is sent', () => {
    const arb = (withStatus: 'always' | 'never' | 'maybe') =>
      sample(arbitraryFromSchema(contract, '#/components/schemas/NewPet', { nameTag: TAG, withStatus }), 200);
    expect(arb('always').every((p) => typeof p.status === 'string')).toBe(true);
    expect(arb('never').every((p) => !('status' in p))).toBe(true);
    const maybe = arb('maybe');
    expect(maybe.some((p) => 'status' in p) && maybe.some((p) => !('status' in p))).toBe(true);
  });

  it('int64() respects narrower bounds', () => {
    for (const v of fc.sample(int64({ min: -5n, max: 5n }), 200)) expect(v >= -5n && v <= 5n).toBe(true);
  });

  it('listPets queries come from the parameter schemas: limit 1..100 (both bounds), status in PetStatus', () => {
    const queries = fc.sample(queryArbitrary(contract, 'listPets', { always: ['limit'] }), { numRuns: 500, seed: 1 });
    const limits = queries.map((q) => q.limit as number);
    for (const limit of limits) expect(Number.isInteger(limit) && limit >= 1 && limit <= 100).toBe(true);
    expect(limits).toContain(1);
    expect(limits).toContain(100);
    const statuses = new Set(queries.map((q) => q.status));
    expect(statuses).toEqual(new Set([undefined, 'available', 'pending', 'sold']));
  });
});
