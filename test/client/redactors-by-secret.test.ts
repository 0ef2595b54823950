import { describe, expect, it } from 'vitest';
import { createRedactor, createRedactorOf, redactorsBySecret } from '../../src/client/redact.ts';

const MAIN = 'asc_live_0123456789abcdefGHIJ';
const OTHER = 'asc_test_ZYXWVUT9876543210klm';
const TEXTS = [`Bearer ${MAIN}`, `{"name":"${OTHER.toUpperCase()}"}`, `${[...MAIN].reverse().join('')} and ${OTHER}`, 'a plain text with no key in it'];

describe("a worker's redactors by secret", () => {
  it('builds each secret’s redactor once and hands the same one out again', () => {
    const bySecret = redactorsBySecret();
    expect(bySecret(MAIN)).toBe(bySecret(MAIN));
    expect(bySecret(OTHER)).not.toBe(bySecret(MAIN));
  });

  it('gives lists that share a secret the answers of redactors built apart', () => {
    const bySecret = redactorsBySecret();
    const alone = createRedactorOf([MAIN], bySecret);
    const together = createRedactorOf([MAIN, OTHER], bySecret);
    for (const text of TEXTS) {
      expect(alone(text)).toBe(createRedactorOf([MAIN])(text));
      expect(together(text)).toBe(createRedactorOf([MAIN, OTHER])(text));
      expect(together(text)).not.toContain(MAIN);
      expect(together(text)).not.toContain(OTHER);
    }
    const split = [OTHER.slice(0, 14), OTHER.slice(14)];
    expect(together.pieces(split)).toEqual(createRedactor(OTHER).pieces(createRedactor(MAIN).pieces(split)));
    expect(together.pieces(split).join('')).not.toContain(OTHER.slice(0, 14));
  });
});
