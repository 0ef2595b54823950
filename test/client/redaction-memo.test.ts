import { describe, expect, it } from 'vitest';
import { createRedactor, createRedactorOf } from '../../src/client/redact.ts';
import { createMemo, listKey } from '../../src/client/redaction-memo.ts';

const KEY = 'asc_live_0123456789abcdefGHIJ';

describe("the redactor's memo", () => {
  it('answers a text it has seen with what the scan gave, the key removed every time', () => {
    const redact = createRedactorOf([KEY]);
    const fresh = createRedactor(KEY);
    for (const text of [`Bearer ${KEY}`, `{"name":"${KEY.toUpperCase()}"}`, 'a plain text with no key in it at all']) {
      const first = redact(text);
      expect(redact(text)).toBe(first);
      expect(first).toBe(fresh(text));
    }
    expect(redact(`Bearer ${KEY}`)).not.toContain(KEY);
  });

  it('answers lists by their texts and their bounds: a key split across texts is still found, a copy of the answer is handed out', () => {
    const redact = createRedactorOf([KEY]);
    const split = [KEY.slice(0, 14), KEY.slice(14)];
    const first = redact.pieces(split);
    expect(first.join('')).not.toContain(KEY.slice(0, 14));
    first[0] = 'changed by a caller';
    expect(redact.pieces(split)).toEqual(createRedactor(KEY).pieces(split));
    expect(redact.pieces([split.join('')])).toEqual(createRedactor(KEY).pieces([split.join('')]));
  });

  it('keeps no more characters than its bound, the oldest leaving first, and never keeps a text past it', () => {
    let computed = 0;
    const memo = createMemo<string>(10, (value, key) => (value === key ? 0 : value.length));
    const same = (text: string) => memo(text, () => ((computed += 1), text));
    same('aaaa');
    same('bbbb');
    same('aaaa');
    expect(computed).toBe(2);
    same('cccc');
    same('aaaa');
    expect(computed).toBe(4);
    same('a text longer than the bound');
    same('a text longer than the bound');
    expect(computed).toBe(6);
  });

  it('gives two lists of the same characters two keys', () => {
    expect(listKey(['ab'])).not.toBe(listKey(['a', 'b']));
    expect(listKey(['a', 'b'])).toBe(listKey(['a', 'b']));
  });
});
