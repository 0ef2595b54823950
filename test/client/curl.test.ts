import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shellWord, singleQuote, toCurl } from '../../src/client/index.ts';

const KEY = 'sk-live-SECRET-1234567890';

/** What a POSIX sh (dash) makes of `words`: each argument it would pass to a command. */
function bashArgs(words: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${words}`], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.split('\0').slice(0, -1);
}

/** Runs a curl line with `curl` replaced by a function that prints its arguments. */
function curlArgs(line: string): string[] {
  const out = execFileSync('sh', ['-c', `curl() { printf '%s\\0' "$@"; }; ${line}`], {
    env: { PATH: process.env.PATH ?? '', API_KEY: KEY },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.split('\0').slice(0, -1);
}

describe('toCurl', () => {
  it('writes the documented shape, with $API_KEY in double quotes', () => {
    const line = toCurl({
      method: 'POST',
      url: 'http://127.0.0.1:8080/v1/pets',
      shellHeaders: { Authorization: 'Bearer $API_KEY' },
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(line).toBe(
      `curl -sS -X POST 'http://127.0.0.1:8080/v1/pets' -H "Authorization: Bearer $API_KEY" -H 'Content-Type: application/json' --data-raw '{"name":"Rex","categoryId":1}'`,
    );
    expect(curlArgs(line)).toEqual([
      '-sS',
      '-X',
      'POST',
      'http://127.0.0.1:8080/v1/pets',
      '-H',
      `Authorization: Bearer ${KEY}`,
      '-H',
      'Content-Type: application/json',
      '--data-raw',
      '{"name":"Rex","categoryId":1}',
    ]);
  });

  it('survives hostile bodies: quotes, backslashes, $(…), newlines, unicode', () => {
    const body = `{"name":"it's \\"Rex\\" $(rm -rf /) \`id\` $HOME !!\n\t🐕 ünï ''' "}`;
    const line = toCurl({ method: 'POST', url: "http://h/v1/pets?q=it's", headers: { 'Content-Type': 'application/json' }, body });
    expect(curlArgs(line).at(-1)).toBe(body);
    expect(curlArgs(line)[3]).toBe("http://h/v1/pets?q=it's");
  });

  // One bash process per batch: spawning one per generated case would take seconds.
  it('quotes any string so bash reads it back unchanged (sampled)', () => {
    const texts = fc.sample(
      fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0')),
      { numRuns: 300, seed: 42 },
    );
    texts.push("'", "''", "'\\''", '\n', '"$(id)"', '!!', '');
    expect(bashArgs(texts.map(singleQuote).join(' '))).toEqual(texts);
  });

  it('writes each occurrence of the key as $API_KEY, whatever surrounds it (sampled)', () => {
    const around = fc.string({ maxLength: 12 }).filter((s) => !s.includes('\0'));
    const texts = fc.sample(fc.tuple(around, around), { numRuns: 300, seed: 7 }).map(([before, after]) => `${before}${KEY}${after}${KEY}`);
    texts.push(`${KEY}0${KEY}`, `a${KEY}_b`, `'${KEY}'`, `"${KEY}"`, `$${KEY}$`, KEY);
    const words = texts.map((t) => shellWord(t, KEY));
    for (const word of words) expect(word).not.toContain(KEY);
    expect(bashArgs(words.join(' '), { API_KEY: KEY })).toEqual(texts);
  });

  it('reads the key from another variable when told, braced where a word follows', () => {
    const word = shellWord(`a${KEY}_b${KEY}`, KEY, 'EXHAUST_API_KEY');
    expect(word).toBe('"a${EXHAUST_API_KEY}_b$EXHAUST_API_KEY"');
    expect(bashArgs(word, { EXHAUST_API_KEY: KEY, API_KEY: 'the-main-key' })).toEqual([`a${KEY}_b${KEY}`]);
    expect(shellWord(`"${KEY}`, KEY, 'FREE_PLAN_KEY')).toBe(`'"'"$FREE_PLAN_KEY"`);
  });

  it('keeps an absent Content-Type absent and an empty header empty', () => {
    const line = toCurl({ method: 'POST', url: 'http://h/v1/pets', headers: { 'X-Empty': '' }, body: '' });
    expect(curlArgs(line)).toEqual(['-sS', '-X', 'POST', 'http://h/v1/pets', '-H', 'X-Empty;', '-H', 'Content-Type:', '--data-raw', '']);
  });

  it("removes a header curl would add by itself when the request went without it (curl's `Name:`)", () => {
    expect(curlArgs(toCurl({ method: 'GET', url: 'http://h/v1/pets', omitHeaders: ['Host'] }))).toEqual([
      '-sS',
      '-X',
      'GET',
      'http://h/v1/pets',
      '-H',
      'Host:',
    ]);
  });

  it('quotes a method that is not a token', () => {
    expect(curlArgs(toCurl({ method: 'GE T', url: 'http://h/' }))).toEqual(['-sS', '-X', 'GE T', 'http://h/']);
  });
});
