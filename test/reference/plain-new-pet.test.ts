import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContract } from '../../src/contract/index.ts';
import { NEW_PET_SCHEMA } from '../../src/reference/new-pet.ts';
import { plainNewPetCheck } from '../../src/reference/plain-new-pet.ts';

const contract = createContract();
const schemas = contract.document.components.schemas as Record<string, unknown>;
const statuses = ['available', 'pending', 'sold'];

describe("createPet's check of a plain NewPet", () => {
  const plain = plainNewPetCheck(schemas, statuses);

  it('applies to the contract it was written for', () => {
    expect(plain).toBeDefined();
  });

  it('accepts only bodies the schema validator accepts', () => {
    const any = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.bigInt(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom(...statuses, 'lost', 'Available'),
    );
    const body = fc.record(
      { name: any, categoryId: fc.oneof(any, fc.constantFrom(2 ** 53, -(2 ** 53), -0, 2 ** 63)), status: any, extra: any },
      { requiredKeys: [] },
    );
    let accepted = 0;
    fc.assert(
      fc.property(body, (value) => {
        if (!plain?.(value)) return;
        accepted += 1;
        expect(contract.validate(NEW_PET_SCHEMA, value)).toEqual([]);
      }),
      { numRuns: 3000, seed: 50 },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it.each([
    ['a name that is no string', { name: 1, categoryId: 1 }],
    ['no name', { categoryId: 1 }],
    ['a fractional categoryId', { name: 'a', categoryId: 1.5 }],
    ['a categoryId past 2^53', { name: 'a', categoryId: 2 ** 53 }],
    ['a bigint categoryId', { name: 'a', categoryId: 2n }],
    ['a status outside PetStatus', { name: 'a', categoryId: 1, status: 'lost' }],
    ['a null status', { name: 'a', categoryId: 1, status: null }],
    ['an array', [{ name: 'a', categoryId: 1 }]],
  ])('leaves %s to the validator', (_, value) => {
    expect(plain?.(value)).toBe(false);
  });

  it.each([
    ['a bounded name', { ...schemas, NewPet: withName({ type: 'string', minLength: 1 }) }],
    ['another PetStatus', { ...schemas, PetStatus: { type: 'string', enum: ['available'] } }],
    ['no NewPet', { ...schemas, NewPet: undefined }],
  ])('does not apply to a contract with %s', (_, changed) => {
    expect(plainNewPetCheck(changed, statuses)).toBeUndefined();
  });
});

function withName(name: unknown): unknown {
  const newPet = schemas.NewPet as { properties: Record<string, unknown> };
  return { ...newPet, properties: { ...newPet.properties, name } };
}
