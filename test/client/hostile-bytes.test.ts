import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { devNull } from 'node:os';
import { gzipSync } from 'node:zlib';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runChecks } from '../../src/checks/index.ts';
import { createClient } from '../../src/client/index.ts';
import { createAgent, dropContinue } from '../../src/client/interim-responses.ts';
import { preflight } from '../../src/harness/preflight.ts';
import { createContract } from '../../src/contract/index.ts';
import { MAX_JSON_DEPTH, parseJson, readJson, readJsonBytes, showValue } from '../../src/text/json.ts';
import { startServer } from './test-server.ts';

/**
 * Bytes are judged, never repaired: every body goes through one reading (strict UTF-8, no duplicate
 * keys, bounded depth, int64 exact), and what is not JSON is the target's finding, with where it broke.
 */

const contract = createContract();
const KEY = 'bytes-key-4f9Qz7Lm2Xv8';

/** A listPets answered with exactly these bytes as application/json. */
async function listPetsAnswering(body: Buffer | string, headers: Record<string, string> = {}) {
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
    res.end(body);
  });
  const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, inspect: runChecks });
  return client.listPets();
}

const PET = '{"id":1,"name":"Rex","categoryId":2}';

describe('the one JSON reading of a body', () => {
  it('refuses bytes that are not UTF-8, naming the offending byte offset', () => {
    // ["Re<0xff>x"]: the 0xff is at byte offset 4.
    const reading = readJsonBytes(Buffer.from([0x5b, 0x22, 0x52, 0x65, 0xff, 0x78, 0x22, 0x5d]));
    expect(reading).toEqual({ ok: false, reason: 'not UTF-8: invalid byte 0xff at byte 4' });
    // An overlong "/" (0xc0 0xaf), a UTF-16 surrogate written as UTF-8, a truncated sequence.
    for (const bytes of [
      [0x22, 0xc0, 0xaf, 0x22],
      [0x22, 0xed, 0xa0, 0x80, 0x22],
      [0x22, 0xe2, 0x82],
    ]) {
      expect(readJsonBytes(Buffer.from(bytes)).ok, `${Buffer.from(bytes).toString('hex')}`).toBe(false);
    }
    expect(readJsonBytes(Buffer.from('["é", "🐕"]'))).toEqual({ ok: true, value: ['é', '🐕'] });
  });

  it('refuses a duplicated key whether or not the body holds a long number, and whatever the values', () => {
    for (const text of ['{"id":"x","name":"a","id":1}', '{"id":"x","categoryId":12345678901234567890,"id":1}', '{"id":1,"id":1}', '[{"a":{"b":1,"b":1}}]']) {
      const reading = readJson(text);
      expect(reading.ok, text).toBe(false);
      expect(reading.ok ? '' : reading.reason, text).toMatch(/duplicate key "\w+" at byte \d+/);
    }
  });

  it('bounds nesting: 100,000 levels are a reason, not a stack overflow', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(readJson(deep)).toEqual({ ok: false, reason: `not JSON: nesting deeper than ${MAX_JSON_DEPTH} levels at byte ${MAX_JSON_DEPTH}` });
    const deepObject = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(readJson(deepObject).ok).toBe(false);
    const allowed = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(readJson(allowed).ok).toBe(true);
  });

  it('keeps int64 exact and every other number as JSON.parse reads it', () => {
    const value = parseJson('{"a":9223372036854775807,"b":-9007199254740993,"c":9007199254740992,"d":1.5,"e":1e3,"f":-0,"g":2.5e300}');
    expect(value).toEqual({ a: 9223372036854775807n, b: -9007199254740993n, c: 9007199254740992n, d: 1.5, e: 1000, f: -0, g: 2.5e300 });
    // The double nearest -316092557530486900 prints as that literal but is -316092557530486912; 2^60 is
    // held exactly by a double but prints as 1152921504606847000.
    expect(parseJson(`[-316092557530486900, 1152921504606846976, 1${'0'.repeat(400)}]`)).toEqual([-316092557530486900n, 2n ** 60n, 10n ** 400n]);
  });

  it('agrees with JSON.parse on what is JSON, and refuses what it refuses', () => {
    const good = ['[]', ' {"a" : [1, true, false, null, "x\\u00e9\\n\\"\\/"]} ', '"\\ud83d\\udc15"', '0', '-1.5E-3'];
    for (const text of good) expect(parseJson(text), text).toEqual(JSON.parse(text));
    const bad = ['', '[1,]', '{"a":1,}', "{'a':1}", '[01]', '[1.]', '["\t"]', '["\\x41"]', 'NaN', '[1] [2]', '\ufeff[]', '{"a" 1}', '[1', '"abc', '[-]', 'tru'];
    for (const text of bad) {
      expect(() => JSON.parse(text), text).toThrow();
      expect(readJson(text).ok, text).toBe(false);
    }
  });

  it('reads __proto__ as a key, never as the object prototype', () => {
    const value = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shows any value without throwing', () => {
    expect(showValue({ a: 1n << 70n })).toBe('{"a":1180591620717411303424}');
  });
});

describe("client: a body that is not JSON is the target's finding, with why", () => {
  it('invalid UTF-8: not JSON, and SCH-004 names the byte offset', async () => {
    const body = Buffer.concat([Buffer.from('[{"id":1,"name":"R'), Buffer.from([0xff]), Buffer.from('x","categoryId":2}]')]);
    const response = await listPetsAnswering(body);
    expect(response.isJson).toBe(false);
    expect(response.jsonError).toBe('not UTF-8: invalid byte 0xff at byte 18');
    const finding = response.findings.find((f) => f.requirementId === 'SCH-004');
    expect(finding?.actual).toContain('invalid byte 0xff at byte 18');
    expect(response.findings.some((f) => f.requirementId === 'SCH-001')).toBe(true);
  });

  it.each([
    ['without a long number', `[{"id":"x","name":"Rex","categoryId":2,"id":1}]`],
    ['with a 16-digit number', `[{"id":"x","name":"Rex","categoryId":1234567890123456,"id":1}]`],
  ])('a duplicated key (%s) is not JSON, the same answer either way', async (_label, body) => {
    const response = await listPetsAnswering(body);
    expect(response.isJson).toBe(false);
    expect(response.jsonError).toMatch(/^not JSON: duplicate key "id" at byte \d+$/);
    expect(response.findings.map((f) => f.requirementId)).toContain('SCH-004');
  });

  it('100,000-deep nesting is a finding, not the suite crashing', async () => {
    const response = await listPetsAnswering(`${'['.repeat(100_000)}${PET}${']'.repeat(100_000)}`);
    expect(response.isJson).toBe(false);
    expect(response.jsonError).toContain(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
    expect(response.findings.find((f) => f.requirementId === 'SCH-004')?.actual).toContain('nesting deeper');
  });

  it('a gzip body without Content-Encoding is bytes that are not UTF-8 (byte 1 is 0x8b)', async () => {
    const response = await listPetsAnswering(gzipSync('[]'));
    expect(response.isJson).toBe(false);
    expect(response.jsonError).toBe('not UTF-8: invalid byte 0x8b at byte 1');
  });

  it('a body with Content-Encoding gzip is decoded (the suite sends no Accept-Encoding: any coding is acceptable)', async () => {
    const response = await listPetsAnswering(gzipSync(`[${PET}]`), { 'Content-Encoding': 'gzip' });
    expect(response.isJson).toBe(true);
    expect(response.body).toEqual([{ id: 1, name: 'Rex', categoryId: 2 }]);
  });

  it.each([
    [
      'a gzip bomb (3 MiB of zeros in a few KiB)',
      gzipSync(Buffer.alloc(3 * 1024 * 1024, 0x20)),
      'gzip',
      /decodes \(Content-Encoding gzip\) to more than 2097152 bytes/,
    ],
    ['a corrupt gzip', Buffer.from('not gzip at all'), 'gzip', /not valid gzip/],
    ['an unknown coding', Buffer.from('[]'), 'zstd', /Content-Encoding "zstd", which the suite cannot decode/],
  ])("%s is the target's finding", async (_label, body, coding, reason) => {
    const response = await listPetsAnswering(body, { 'Content-Encoding': coding });
    expect(response.isJson).toBe(false);
    expect(response.jsonError).toMatch(reason);
    expect(response.findings.map((f) => f.requirementId)).toContain('SCH-004');
  });

  it('a valid UTF-8 body with int64 ids still reads exactly', async () => {
    const response = await listPetsAnswering('[{"id":9223372036854775807,"name":"Réx 🐕","categoryId":1}]');
    expect(response.isJson).toBe(true);
    expect(response.body).toEqual([{ id: 9223372036854775807n, name: 'Réx 🐕', categoryId: 1 }]);
    expect(response.jsonError).toBeUndefined();
  });
});

/** A raw TCP server answering every request with `100 Continue` first, then a 200 JSON list (split or not). */
async function continueFirst(together: boolean): Promise<string> {
  const final = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-RateLimit-Limit: 60\r\nContent-Length: 2\r\n\r\n[]';
  const server = createNetServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', () => {
      if (together) return void socket.write(`HTTP/1.1 100 Continue\r\n\r\n${final}`);
      socket.write('HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n');
      setTimeout(() => socket.write(final), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('an unsolicited 100 Continue is read as HTTP requires (RFC 9110 §15.2), not called a closed connection', () => {
  it.each([
    ['in its own packet', false],
    ['in the same packet as the final response', true],
  ])('the client reads the final response (%s), on every request of a kept-alive connection', async (_label, together) => {
    const origin = await continueFirst(together);
    const dispatcher = createAgent();
    onTestFinished(() => dispatcher.destroy());
    const client = createClient({ baseUrl: `${origin}/v1`, apiKey: KEY, contract, dispatcher });
    for (const send of [() => client.listPets(), () => client.createPet({ name: 'Rex', categoryId: 1 }), () => client.getPet(1)]) {
      const response = await send();
      expect(response.status).toBe(200);
      expect(response.body).toEqual([]);
    }
  });

  it('the preflight reads it too', async () => {
    const origin = await continueFirst(false);
    await expect(preflight({ baseUrl: `${origin}/v1`, apiKey: KEY, timeoutMs: 5_000, ledgerPath: devNull })).resolves.toBeUndefined();
  });

  it('drops only interim 100 responses at the start of a read', () => {
    const body = Buffer.from('HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n');
    expect(dropContinue(body)).toEqual(body);
    expect(dropContinue(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 100 x\r\nA: b\r\n\r\nHTTP/1.1 200 OK\r\n')).toString()).toBe('HTTP/1.1 200 OK\r\n');
  });
});
