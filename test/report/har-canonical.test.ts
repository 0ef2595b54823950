import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/client/exchange.ts';
import { HAR_CHAIN_START, harEntryHash, harText, toHar } from '../../src/report/har.ts';
import { canonicalJson, sortedCopy } from '../../src/text/canonical-json.ts';
import type { WireBytes, WireRecord } from '../../src/text/wire-record.ts';

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const headers = fc.dictionary(fc.constantFrom('Content-Type', 'content-type', 'X-RateLimit-Remaining', 'Date', 'x-a', '_b', 'B', '0', '10'), fc.string(), {
  maxKeys: 5,
});
const bytes: fc.Arbitrary<WireBytes> = fc.oneof(
  fc.record({ text: fc.string(), size: fc.nat(), cut: optional(fc.constant(true as const)), redacted: optional(fc.constant(true as const)) }),
  fc.record({ size: fc.nat(), sha256: fc.stringMatching(/^[0-9a-f]{0,64}$/), base64: fc.base64String() }),
);
const wire: fc.Arbitrary<WireRecord> = fc.record({
  // Keys given out of order, as the probes write them: the entry must still be canonical.
  sent: bytes,
  place: fc.constantFrom('lone', 'first', 'odd'),
  read: bytes,
  run: fc.nat(),
  ended: fc.constantFrom('response', 'closed', 'timeout'),
  connection: fc.nat(),
}) as fc.Arbitrary<WireRecord>;

/** Exchanges with every optional part of an entry present or not: connections, probes' records, cut and non-UTF-8 bodies, errors. */
const exchange: fc.Arbitrary<Exchange> = fc
  .record({
    seq: fc.nat(),
    startedAt: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    durationMs: fc.double({ min: -1, max: 1e5, noNaN: true }),
    operationId: optional(fc.constantFrom('listPets', 'createPet', 'getPet', '')),
    request: fc.record({
      method: fc.constantFrom('GET', 'POST', 'BREW'),
      url: fc.constantFrom('http://127.0.0.1:1/v1/pets?limit=5&status=sold', 'http://127.0.0.1:1/v1/pets/%zz', 'http://127.0.0.1:1/v1/pets/1', 'not a url'),
      headers,
      body: optional(fc.string()),
      redacted: optional(fc.constant(true as const)),
    }),
    response: optional(
      fc.record({
        status: fc.integer({ min: 100, max: 599 }),
        headers,
        body: optional(fc.string()),
        bodyTruncated: optional(fc.boolean()),
        size: optional(fc.nat()),
        items: optional(fc.nat()),
        bytes: optional(fc.record({ base64: fc.base64String(), sha256: fc.stringMatching(/^[0-9a-f]{0,64}$/) })),
        redacted: optional(fc.boolean()),
      }),
    ),
    error: optional(fc.record({ message: fc.string(), code: fc.constantFrom('ERR_TARGET_TIMEOUT', 'ERR_TARGET_UNREACHABLE') })),
    curl: fc.string(),
    retries: optional(fc.nat({ max: 3 })),
    raw: optional(fc.constant(true as const)),
    heardAfter: optional(fc.record({ closed: fc.boolean(), bytes: fc.nat() })),
    wire: optional(wire),
    connection: optional(
      fc.record(
        {
          strayBefore: fc.record({ count: fc.nat(), bytes: fc.string() }),
          droppedBefore: fc.record({ idleMs: optional(fc.nat()), error: fc.string(), answered: fc.nat(), drops: fc.nat() }),
        },
        { requiredKeys: [] },
      ),
    ),
    file: optional(fc.constantFrom('suites/http.test.ts', 'suites/auth.test.ts')),
    fileSeq: optional(fc.nat()),
    summarised: optional(fc.constant(true as const)),
  })
  .map((value) => JSON.parse(JSON.stringify(value)) as Exchange);

describe('the exchange log: entries written in canonical key order', () => {
  it("each entry's JSON is its canonical text, so the chain toHar writes is harEntryHash's", () => {
    fc.assert(
      fc.property(fc.array(exchange, { maxLength: 6 }), (exchanges) => {
        const { entries } = toHar(exchanges, { name: 'test', version: '0' }).log;
        let prev = HAR_CHAIN_START;
        for (const entry of entries) {
          expect(JSON.stringify(entry)).toBe(canonicalJson(entry));
          expect(entry._prev).toBe(prev);
          prev = harEntryHash(entry);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes the log as text that parses to toHar, one entry a line, each as the chain hashed it', () => {
    fc.assert(
      fc.property(fc.array(exchange, { maxLength: 6 }), (exchanges) => {
        const creator = { name: 'test', version: '0' };
        const text = harText(exchanges, creator);
        const har = toHar(exchanges, creator);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(har)));
        const lines = text.split('\n');
        har.log.entries.forEach((entry, i) => expect(lines[i + 1]).toBe(`${canonicalJson(entry)}${i + 1 < har.log.entries.length ? ',' : ''}`));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps what the exchange held, only its keys reordered', () => {
    fc.assert(
      fc.property(exchange, (one) => {
        const [entry] = toHar([one], { name: 'test', version: '0' }).log.entries;
        expect(entry!._wire).toEqual(one.wire);
        expect(entry!._connection).toEqual(one.connection);
        expect(entry!.response._error).toEqual(one.error);
        expect(entry!.response.content.text).toBe(one.response?.body === undefined ? undefined : (one.response.bytes?.base64 ?? one.response.body));
        expect(entry!.request.postData?.text).toBe(one.request.body);
        expect(entry!._curl).toBe(one.curl);
      }),
      { numRuns: 300 },
    );
  });

  it('sortedCopy gives the canonical order, index keys first as JavaScript orders them', () => {
    const value = { b: 1, a: { d: [{ z: 1, y: 2 }], c: null }, 10: 'ten', 2: 'two', _u: true, B: 0 };
    const copy = sortedCopy(value);
    expect(JSON.stringify(copy)).toBe(canonicalJson(value));
    expect(Object.keys(copy as object)).toEqual(['2', '10', 'B', '_u', 'a', 'b']);
    // An own __proto__ key, as JSON.parse makes one, is kept as a key.
    const parsed: unknown = JSON.parse('{"b":1,"__proto__":{"x":1},"a":2}');
    expect(JSON.stringify(sortedCopy(parsed))).toBe(canonicalJson(parsed));
  });
});
