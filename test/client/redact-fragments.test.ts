import { describe, expect, it } from 'vitest';
import { createRedactor, redactHeaders } from '../../src/client/redact.ts';

const KEY = 'sk-live-Recognisable-7f3a9c2e51';
const FRAGMENT = 8;

/** Every run of FRAGMENT characters of the key, lower-cased. */
const fragments = (key: string) => Array.from({ length: key.length - FRAGMENT + 1 }, (_, i) => key.slice(i, i + FRAGMENT).toLowerCase());

/** The first fragment of the key readable in `text` (case-insensitive), or undefined. */
function readableFragment(text: string, key = KEY): string | undefined {
  const lower = text.toLowerCase();
  return fragments(key).find((fragment) => lower.includes(fragment));
}

/** `\uXXXX` for a character, its hex digits in the given case. */
const uEscape = (c: string, upper: boolean) => {
  const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
};
/** A letter in the other case: what a target writes to dodge a pattern built from the key's own code points. */
const otherCase = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

describe('redactor: no fragment of the key of 8 or more characters survives', () => {
  const redact = createRedactor(KEY);

  it.each(Array.from({ length: KEY.length - FRAGMENT + 1 }, (_, i) => i))('a 401 body quoting 13 characters from offset %i', (at) => {
    const piece = KEY.slice(at, at + 13);
    const out = redact(`Unauthorized: the API key ${piece} is not valid`);
    expect(readableFragment(out), out).toBeUndefined();
    expect(out).toContain('is not valid');
  });

  it('letters \\u-escaped in the other case, in either hex case, mixed with raw letters', () => {
    for (const upper of [false, true]) {
      const mixed = [...KEY].map((c, i) => (/[a-z]/i.test(c) && i % 2 === 0 ? uEscape(otherCase(c), upper) : c)).join('');
      const out = redact(`{"message":"the key ${mixed} is not valid"}`);
      const decoded = JSON.parse(out) as { message: string };
      expect(readableFragment(decoded.message), out).toBeUndefined();
    }
  });

  it('a fragment percent-encoded, in base64 at any offset, or \\u-escaped is gone', () => {
    const piece = KEY.slice(5, 17);
    const forms = [
      [...piece].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
      [...piece].map((c) => uEscape(c, true)).join(''),
      ...[0, 1, 2].map((shift) => Buffer.from(`${'x'.repeat(shift)}${piece}`).toString('base64')),
    ];
    for (const form of forms) {
      const out = redact(`{"echo":"${form}"}`);
      const shown = decodeURIComponent(JSON.parse(out.replace(/%(?![0-9a-f]{2})/gi, '%25')).echo as string);
      expect(readableFragment(shown), form).toBeUndefined();
      for (const shift of [0, 1, 2]) expect(readableFragment(Buffer.from(shown, 'base64').toString('latin1').slice(shift)), form).toBeUndefined();
    }
  });

  it('a key split across three headers, or across lines, shows no fragment of it', () => {
    const headers = { 'x-a': KEY.slice(0, 11), 'x-b': KEY.slice(11, 22), 'x-c': KEY.slice(22), 'content-type': 'text/plain' };
    const shown = redactHeaders(headers, redact);
    expect(readableFragment(Object.values(shown).join('')), JSON.stringify(shown)).toBeUndefined();
    expect(shown['content-type']).toBe('text/plain');
    const fourWays = { 'x-a': KEY.slice(0, 7), 'x-b': KEY.slice(7, 14), 'x-c': KEY.slice(14, 21), 'x-d': KEY.slice(21) };
    expect(readableFragment(Object.values(redactHeaders(fourWays, redact)).join(''))).toBeUndefined();
    const lines = redact(`key:\n  ${KEY.slice(0, 6)}\n  ${KEY.slice(6, 12)}\n  ${KEY.slice(12)}\nend`);
    expect(readableFragment(lines.replace(/\s/g, '')), lines).toBeUndefined();
    expect(lines).toMatch(/^key:\n/);
    expect(lines).toMatch(/\nend$/);
  });

  it('leaves ordinary text whole, a short run of key letters included', () => {
    const text = 'Unauthorized: the API key sk-other-key is not valid (see https://example.com/docs#auth)';
    expect(redact(text)).toBe(text);
  });
});

/** CPU microseconds `run` takes, the least of `trials` tries (the least is the one least disturbed). */
function cpuMicros(run: () => void, trials = 5): number {
  let best = Number.POSITIVE_INFINITY;
  for (let t = 0; t < trials; t += 1) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, used.user + used.system);
  }
  return best;
}

/**
 * Whether `run` grows linearly rather than quadratically from `small` to `large` (16 times larger): the
 * large input must cost less than 64 times the small one, the geometric middle between linear (16×) and
 * quadratic (256×). A busy machine can disturb one measurement, never three in a row by a factor of four,
 * so a pair is measured again before it counts as quadratic; a quadratic scan fails every attempt.
 */
function growthRatio<T>(run: (input: T) => unknown, [small, large]: [T, T], sizes: [number, number]): { ratio: number; detail: string } {
  run(small); // warm up: compile and optimise before measuring
  let best = { ratio: Number.POSITIVE_INFINITY, detail: '' };
  for (let attempt = 0; attempt < 3 && best.ratio >= 64; attempt += 1) {
    const smallCost = Math.max(
      cpuMicros(() => run(small)),
      100,
    ); // floored: timer resolution is not growth
    const largeCost = cpuMicros(() => run(large), 3);
    const ratio = largeCost / smallCost;
    if (ratio < best.ratio) best = { ratio, detail: `${smallCost} µs for ${sizes[0]} characters, ${largeCost} µs for ${sizes[1]}` };
  }
  return best;
}

describe('redactor: time linear in its input', () => {
  const redact = createRedactor(KEY);
  /** Inputs that made a backtracking pattern rescan a run from each of its characters. */
  const shapes: Array<[string, (n: number) => string]> = [
    ['backslashes', (n) => '\\'.repeat(n)],
    ['backslashes before a key letter', (n) => `${'\\'.repeat(n)}s`],
    ['\\u prefixes', (n) => '\\u'.repeat(n / 2)],
    ['percent signs', (n) => '%25'.repeat(n / 3)],
    ['HTML references of zeros', (n) => `&#x${'0'.repeat(n)}`],
    ['key prefixes', (n) => KEY.slice(0, 10).repeat(n / 10)],
  ];

  it.each(shapes)('%s: sixteen times the input costs less than sixty-four times the CPU', (_label, shape) => {
    const { ratio, detail } = growthRatio(redact, [shape(2_000), shape(32_000)], [2_000, 32_000]);
    expect(ratio, detail).toBeLessThan(64);
  });

  it('a header of backslashes: sixteen times longer costs less than sixty-four times the CPU', () => {
    const header = (n: number) => ({ 'x-pad': '\\'.repeat(n) });
    const { ratio, detail } = growthRatio((input) => redactHeaders(input, redact), [header(1_000), header(16_000)], [1_000, 16_000]);
    expect(ratio, detail).toBeLessThan(64);
  });

  it('past its bound the text is dropped and marked, never shown unredacted', () => {
    const huge = `${'a'.repeat(2 * 1024 * 1024)}${KEY}`;
    const out = redact(huge);
    expect(out.length).toBeLessThan(huge.length);
    expect(out).toMatch(/characters withheld unscanned/);
    expect(readableFragment(out)).toBeUndefined();
  });
});

describe('redactor: a disguised fragment of the key withholds the text', () => {
  const redact = createRedactor(KEY);
  it.each([
    ['fullwidth letters', [...KEY.slice(8, 18)].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('')],
    ['zero-width spaces between letters', [...KEY.slice(8, 18)].join('\u200b')],
    ['spaced out', [...KEY.slice(8, 18)].join(' ')],
  ])('%s', (_label, form) => {
    const out = redact(`{"echo":"${form}"}`);
    expect(out).toMatch(/withheld/);
    expect(out).not.toContain(form);
  });
});
