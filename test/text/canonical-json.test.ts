import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../../src/text/canonical-json.ts';

/** The canonical text as it was first written: JSON.stringify with a replacer that sorts every plain object's keys. */
const byReplacer = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/** Values as the exchange log and the certificate's claims hold them, and the corners JSON.stringify treats apart. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.jsonValue({ maxDepth: 1 }),
    fc.constantFrom(undefined, Number.NaN, -0, Number.POSITIVE_INFINITY, () => 1, Symbol('s')),
    fc.date({ noInvalidDate: true }),
  ),
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 5 }),
  object: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('0', '1', '9', '10', '01', '4294967294', '4294967295', '-1', '__proto__')), tie('node'), {
    maxKeys: 6,
  }),
}));

describe('canonicalJson: the text the exchange log hashes', () => {
  test('is byte for byte what JSON.stringify wrote with a replacer sorting every object', () => {
    fc.assert(
      fc.property(value.node, (v) => {
        expect(canonicalJson(v)).toBe(byReplacer(v));
      }),
      { numRuns: 2_000 },
    );
  });

  test('sorts keys at every level, array indices first in numeric order, and leaves out what JSON leaves out', () => {
    const text = canonicalJson({ b: 1, a: [3, undefined, { d: undefined, c: 'x' }], 10: true, 9: null, when: new Date(0) });
    expect(text).toBe('{"9":null,"10":true,"a":[3,null,{"c":"x"}],"b":1,"when":"1970-01-01T00:00:00.000Z"}');
  });

  test('refuses a bigint, as JSON.stringify does', () => {
    expect(() => canonicalJson({ id: 1n })).toThrow(TypeError);
  });
});
