import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidNewPet, invalidationsOf, NEW_PET_REF, type InvalidCase } from '../../src/arbitraries/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { parseJson } from '../../src/text/json.ts';

const contract = createContract();
const OPTIONS = { nameTag: 'conformance-0123abcd STA-006 #1' };
const invalidations = invalidationsOf(contract, NEW_PET_REF, OPTIONS);
const names = invalidations.map((m) => m.name);

/** What the server receives, read back the way a server would read it. */
function received(c: InvalidCase): unknown {
  return c.rawBody === undefined ? c.body : parseJson(c.rawBody);
}

describe('invalidationsOf of NewPet', () => {
  it('every generated case of every invalidation fails validation against NewPet', () => {
    for (const invalidation of invalidations) {
      for (const c of fc.sample(invalidation.arbitrary, { numRuns: 60, seed: 7 })) {
        expect(contract.validate(NEW_PET_REF, received(c)), `${c.label} should be invalid`).not.toEqual([]);
      }
    }
  });

  it('covers each required field missing', () => {
    expect(names).toEqual(expect.arrayContaining(['missing name', 'missing categoryId', 'no required field']));
  });

  it('covers each field holding each JSON type its schema excludes, numeric strings, floats and enum outsiders', () => {
    const expected = [
      ...['number', 'boolean', 'null', 'array', 'object'].map((t) => `name as ${t}`),
      ...['string', 'numeric string', 'float', 'boolean', 'null', 'array', 'object'].map((t) => `categoryId as ${t}`),
      ...['number', 'boolean', 'null', 'array', 'object'].map((t) => `status as ${t}`),
      'status outside the enum',
      'status in another letter case',
      'categoryId above int64',
      'categoryId below int64',
      ...['array', 'null', 'string', 'number', 'boolean'].map((t) => `body as ${t}`),
    ];
    expect([...names].sort()).toEqual([...expected, 'missing name', 'missing categoryId', 'no required field'].sort());
  });

  it('floats are never integral (1.0 and 1e3 are integers in JSON Schema)', () => {
    const float = invalidations.find((m) => m.name === 'categoryId as float')!;
    for (const c of fc.sample(float.arbitrary, 300)) expect(Number.isInteger((c.body as { categoryId: number }).categoryId)).toBe(false);
  });

  it('int64 overflow is sent as exact JSON text, not a rounded number', () => {
    const above = invalidations.find((m) => m.name === 'categoryId above int64')!;
    const texts = fc.sample(above.arbitrary, 100).map((c) => c.rawBody ?? '');
    expect(texts.some((t) => t.includes('"categoryId":9223372036854775808'))).toBe(true);
  });

  it('labels read as the invalidation and its value', () => {
    const float = invalidations.find((m) => m.name === 'categoryId as float')!;
    const labels = fc.sample(float.arbitrary, { numRuns: 200, seed: 3 }).map((c) => c.label);
    expect(labels).toContain('categoryId as float (1.5)');
    const recased = fc.sample(invalidations.find((m) => m.name === 'status in another letter case')!.arbitrary, 50);
    expect(recased.map((c) => c.label)).toContain('status in another letter case ("AVAILABLE")');
  });

  it('invalidNewPet keeps to the kinds asked for', () => {
    const cases = fc.sample(invalidNewPet(contract, { ...OPTIONS, kinds: ['missing-field'] }), 100);
    expect(new Set(cases.map((c) => c.kind))).toEqual(new Set(['missing-field']));
    const all = fc.sample(invalidNewPet(contract, OPTIONS), 500);
    expect(new Set(all.map((c) => c.kind))).toEqual(new Set(['missing-field', 'wrong-value', 'not-object', 'out-of-range']));
  });
});
