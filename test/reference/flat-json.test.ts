import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFlatObject } from '../../src/reference/flat-json.ts';
import { parseJson, parseJsonStrictly } from '../../src/text/json.ts';

const key = fc.oneof(fc.constantFrom('name', 'categoryId', 'status', '__proto__', 'a'), fc.string({ maxLength: 4 }));
const scalar = fc.oneof(
  fc.integer().map(String),
  fc.double().map((n) => JSON.stringify(n)),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('true', 'false', 'null', '-0', '5.0', '1e3', '1E3', '1e-400', '123456789012345', '1234567890123456', '01', '[]', '{}', '"\\u0000"'),
);
/** Flat objects as createPet receives them, duplicated keys, spacing, and texts cut or patched anywhere. */
const flat = fc
  .tuple(fc.array(fc.tuple(key, scalar), { maxLength: 5 }), fc.constantFrom('', ' ', '\n\t'))
  .map(([pairs, space]) => `${space}{${pairs.map(([k, v]) => `${JSON.stringify(k)}${space}:${space}${v}`).join(`,${space}`)}}${space}`);
const text = fc.oneof(
  flat,
  fc.tuple(flat, fc.nat({ max: 40 }), fc.string({ maxLength: 3 })).map(([json, at, cut]) => json.slice(0, at) + cut + json.slice(at)),
  fc.json(),
);

describe("createPet's flat-object reader", () => {
  it('reads what the strict reader reads, or leaves the text to it', () => {
    fc.assert(
      fc.property(text, (t) => {
        const fast = readFlatObject(t);
        if (fast === undefined) return;
        expect(fast).toEqual(parseJsonStrictly(t));
        expect(fast).toEqual(parseJson(t));
      }),
      { numRuns: 3000, seed: 50 },
    );
  });

  it('reads the common body itself', () => {
    expect(readFlatObject('{"name":"Rex","categoryId":1,"status":"available"}')).toEqual({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(readFlatObject(' { "name" : "a\\"b" , "categoryId" : -123456789012345 } ')).toEqual({ name: 'a"b', categoryId: -123456789012345 });
  });

  it.each([
    ['a duplicated key', '{"name":"a","name":"b"}'],
    ['a nested object', '{"name":{"a":1}}'],
    ['an array', '{"name":[1]}'],
    ['a fraction', '{"categoryId":1.0}'],
    ['an exponent', '{"categoryId":1e3}'],
    ['an upper-case exponent', '{"categoryId":1E3}'],
    ['an integer a double may not hold', '{"categoryId":1234567890123456}'],
    ['a bare value', '5'],
    ['a text JSON.parse refuses', '{"name":"a",}'],
    ['an unterminated string', '{"name":"a'],
  ])('leaves %s to the strict reader', (_, t) => {
    expect(readFlatObject(t)).toBeUndefined();
  });
});
