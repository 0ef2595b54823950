import { describe, expect, it } from 'vitest';
import { parseDictionary, parseItem, parseList } from '../../src/text/structured-fields.ts';

describe('Structured Field Values (RFC 9651)', () => {
  it('reads lists of items with parameters', () => {
    const list = parseList('"minute";q=60;w=60, "day";q=1000;w=86400');
    expect(list?.map((m) => ('value' in m ? m.value : undefined))).toEqual(['minute', 'day']);
    expect(list?.map((m) => Object.fromEntries(m.params))).toEqual([
      { q: 60, w: 60 },
      { q: 1000, w: 86400 },
    ]);
    expect(parseList('100;w=60')).toEqual([{ value: 100, params: new Map([['w', 60]]) }]);
    expect(parseList('(a b);x, ?1, :aGk=:, 1.5, -3, *tok/en:x')).toHaveLength(6);
  });

  it('reads dictionaries, a member without a value being true', () => {
    const dict = parseDictionary('limit=100, remaining=50, reset=5, flag');
    expect(dict && Object.fromEntries([...dict].map(([k, m]) => [k, 'value' in m ? m.value : undefined]))).toEqual({
      limit: 100,
      remaining: 50,
      reset: 5,
      flag: true,
    });
  });

  it('reads dates and strings with escapes', () => {
    expect(parseItem('@1735689600')?.value).toEqual({ date: 1735689600 });
    expect(parseItem('"a\\"b\\\\c"')?.value).toBe('a"b\\c');
  });

  it.each([
    ['an HTTP-date', 'Wed, 01 Jan 2025 00:00:00 GMT'],
    ['a bare word with a space', 'true false'],
    ['a 16-digit integer', '1234567890123456'],
    ['a decimal with 4 fraction digits', '1.2345'],
    ['a trailing comma', '"a";q=1,'],
    ['an unknown escape', '"a\\nb"'],
    ['a non-ASCII string', '"é"'],
    ['an upper-case key', '"a";Q=1'],
    ['a fractional date', '@1.5'],
    ['an empty parameter key', '"a";=1'],
  ])('refuses %s', (_label, text) => {
    expect(parseList(text) === undefined || parseItem(text) === undefined).toBe(true);
    if (_label !== 'a trailing comma') expect(parseItem(text)).toBeUndefined();
  });
});
