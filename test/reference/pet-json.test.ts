import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderPet } from '../../src/reference/pet-json.ts';
import { INT64_MAX, parseJson } from '../../src/text/json.ts';

/** The stored text of a pet is its JSON: every field exact (int64 beyond a double), names escaped, status only when given. */
describe('renderPet', () => {
  const int64 = fc.bigInt({ min: -INT64_MAX - 1n, max: INT64_MAX });
  const pet = fc.record(
    {
      id: int64,
      name: fc.string({ unit: 'binary', maxLength: 40 }),
      categoryId: fc.oneof(int64, fc.integer()),
      status: fc.constantFrom('available', 'pending', 'sold', 'a "quoted" \\ status'),
    },
    { requiredKeys: ['id', 'name', 'categoryId'] },
  );

  it('renders every field exactly, in the interface order, and nothing else', () => {
    fc.assert(
      fc.property(pet, (fields) => {
        const text = renderPet(fields);
        const read = parseJson(text) as Record<string, unknown>;
        const exact = (value: bigint | number) =>
          typeof value === 'bigint' && value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
        const expected: Record<string, unknown> = { id: exact(fields.id), name: fields.name, categoryId: exact(fields.categoryId) };
        if (fields.status !== undefined) expected.status = fields.status;
        expect(read).toStrictEqual(expected);
        expect(Object.keys(read)).toEqual(Object.keys(expected));
      }),
    );
  });

  it('writes a lone surrogate in a name as an escape, never as a broken character', () => {
    expect(renderPet({ id: 1n, name: 'a\ud800b', categoryId: 2 })).toBe('{"id":1,"name":"a\\ud800b","categoryId":2}');
  });
});
