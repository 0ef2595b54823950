import { describe, expect, it } from 'vitest';
import { grouped, plural } from '../../../src/report/html/format.ts';

describe('grouped numbers', () => {
  it('groups thousands as en-US does, for the integers a report shows and past them', () => {
    for (const n of [0, 7, 999, 1000, 4096, 65_535, 1_000_000, 123_456_789, -1234, 1_000_000_000, Number.MAX_SAFE_INTEGER, 1.5, 12_345.678, 1e21]) {
      expect(grouped(n), String(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('counts in words', () => {
    expect(plural(1, 'request')).toBe('1 request');
    expect(plural(4096, 'request')).toBe('4,096 requests');
    expect(plural(2, 'body', 'bodies')).toBe('2 bodies');
  });
});
