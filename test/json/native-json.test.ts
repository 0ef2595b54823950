import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJson, parseJsonStrictly } from '../../src/text/json.ts';
import { nativeJson } from '../../src/text/json-native.ts';

/** The outcome of a reading: the value, or the message of the error it threw. */
function outcome(read: (text: string) => unknown, text: string): { value: unknown } | { error: string } {
  try {
    return { value: read(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.constantFrom(
    '-0',
    '5.0',
    '1e3',
    '1E3',
    '1e-400',
    '1.0000000000000001',
    '9007199254740993',
    '-9223372036854775808',
    '123456789012345',
    '1234567890123456',
    '01',
    '01234567890123456789',
    '-01234567890123456789',
    '12345678901234567890.5',
    '12345678901234567890e1',
  ),
);
/** JSON-ish text: valid documents, and the edits that make the readers differ (duplicates, numbers, breaks). */
const text = fc.oneof(
  fc.json(),
  fc.jsonValue().map((value) => JSON.stringify(value, null, 2)),
  fc.tuple(fc.constantFrom('a', '__proto__', 'id'), number, number).map(([key, a, b]) => `{"${key}":${a},"x":[${b}],"${key}":${b}}`),
  fc.tuple(number, fc.string()).map(([n, s]) => `[${n},${JSON.stringify(s)},{"n":${n}}]`),
  fc.tuple(number, fc.constantFrom('"\\u0000"', '"\\u00001"', '"\\\\u0000"', '"x"')).map(([n, s]) => `{"__proto__":${n},"s":${s},"t":[${n}]}`),
  number.map(String),
  fc.tuple(fc.json(), fc.nat({ max: 40 }), fc.string({ maxLength: 3 })).map(([json, at, cut]) => json.slice(0, at) + cut + json.slice(at)),
);

describe('JSON.parse where it reads what the strict reader reads', () => {
  it("gives the strict reader's value or error on every text", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(outcome(parseJson, t)).toEqual(outcome(parseJsonStrictly, t));
      }),
      { numRuns: 3000, seed: 50 },
    );
  });

  it.each([
    ['a duplicated key', '{"a":1,"a":2}'],
    ['a duplicated key in a nested object', '[{"b":{"a":1,"a":1}}]'],
    ['an integer of 16+ digits with a leading zero', '{"id":01234567890123456}'],
    ['an integer of 16+ digits beside a \\u0000 escape', '{"id":12345678901234567,"name":"\\u0000"}'],
    ['a duplicated key beside an integer of 16+ digits', '{"id":12345678901234567,"a":{"b":1,"b":1}}'],
    ['a fraction', '{"n":5.0}'],
    ['an exponent', '[1e3]'],
    ['a string that never ends', '{"a":"x'],
    ['text JSON.parse refuses', '{"a":01}'],
  ])('leaves %s to the strict reader', (_, t) => {
    expect(nativeJson(t, MAX_JSON_DEPTH)).toBeUndefined();
  });

  it('reads plain bodies natively, digits, colons and braces inside strings included', () => {
    const body = '{"id":123456789012345,"name":"1234567890123456789 {:[e.5E","tags":[true,false,null],"__proto__":{"x":-0}}';
    const read = nativeJson(body, MAX_JSON_DEPTH);
    expect(read).toBeDefined();
    expect(read?.value).toEqual(parseJsonStrictly(body));
    expect(Object.hasOwn(read?.value as object, '__proto__')).toBe(true);
  });

  it('reads an integer of 16+ digits exactly: a number while safe, else a bigint', () => {
    const body = '[9007199254740991,-9007199254740993,9223372036854775807,{"__proto__":12345678901234567}]';
    const read = nativeJson(body, MAX_JSON_DEPTH);
    expect(read?.value).toEqual([
      9007199254740991,
      -9007199254740993n,
      9223372036854775807n,
      JSON.parse('{"__proto__":12345678901234567}', (k, v: unknown) => (k === '__proto__' ? 12345678901234567n : v)),
    ]);
    expect(read?.value).toEqual(parseJsonStrictly(body));
    expect(Object.hasOwn((read?.value as object[])[3]!, '__proto__')).toBe(true);
  });

  it('leaves nesting as deep as the bound to the strict reader, which refuses past it', () => {
    const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
    expect(nativeJson(deep(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBeUndefined();
    expect(outcome(parseJson, deep(MAX_JSON_DEPTH + 1))).toEqual(outcome(parseJsonStrictly, deep(MAX_JSON_DEPTH + 1)));
    expect(nativeJson(deep(MAX_JSON_DEPTH - 1), MAX_JSON_DEPTH)).toBeDefined();
  });

  it('leaves a text to the strict reader while a changed prototype holds an enumerable key', () => {
    const body = '{"a":{"b":1}}';
    const prototype = Object.prototype as Record<string, unknown>;
    Object.defineProperty(prototype, 'inherited', { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      // Counted as keys of the value, they outnumber the colons: the native read declines, the strict one reads.
      expect(nativeJson(body, MAX_JSON_DEPTH)).toBeUndefined();
      expect(parseJson(body)).toEqual(parseJsonStrictly(body));
    } finally {
      delete prototype.inherited;
    }
    expect(nativeJson(body, MAX_JSON_DEPTH)?.value).toEqual({ a: { b: 1 } });
  });
});
