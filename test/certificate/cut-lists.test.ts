import { describe, expect, it } from 'vitest';
import { ruleExchangeOf } from '../../src/certificate/judge-test.ts';
import { readHarEntries } from '../../src/certificate/rejudge-har.ts';
import { evaluateRule, judgmentRule } from '../../src/checks/judgment-rules.ts';
import { LIST_BODY_CHARS, recordExchange, recordRequest } from '../../src/client/record.ts';
import { createRedactor } from '../../src/client/redact.ts';
import { toHar } from '../../src/report/har.ts';
import { contract } from '../checks/context.ts';

/**
 * A list longer than the log keeps (LIST_BODY_CHARS, 256 KiB): 100 animals with names of 3,000
 * characters. The log cuts it and records how many items the whole list held, so `list-length` still
 * counts on re-judging (issue 48: a cut list must not leave a genuine pass unproven).
 */
const NAME = 'n'.repeat(3_000);
const listOf = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `${NAME}${i}`, status: 'available' })));

function recorded(text: string, query = 'limit=100') {
  const redact = createRedactor('a-key-the-list-never-holds-0123');
  const request = recordRequest({ method: 'GET', url: `http://t.example/v1/pets?${query}`, headers: {} }, undefined, redact, 'a-key-the-list-never-holds-0123');
  const response = { status: 200, headers: { 'content-type': 'application/json' }, text, bytes: Buffer.from(text) };
  return recordExchange({ seq: 1, startedAt: Date.UTC(2026, 0, 1), durationMs: 3, operationId: 'listPets', request, response, retries: 0 }, redact);
}

/** The exchange as re-judging reads it from the log. */
function fromLog(text: string, edit: (entry: { response: { content: Record<string, unknown> } }) => void = () => undefined) {
  const har = JSON.parse(JSON.stringify(toHar([recorded(text)], { name: 'animal-store-conformance', version: '0' }))) as {
    log: { entries: Array<{ response: { content: Record<string, unknown> } }> };
  };
  for (const entry of har.log.entries) edit(entry);
  const read = readHarEntries(har);
  if (!('entries' in read) || !read.entries[0]) throw new Error('the log did not read');
  return read.entries[0];
}

const listLength = (text: string, params: Record<string, unknown>, edit?: Parameters<typeof fromLog>[1]) =>
  evaluateRule('list-length', [ruleExchangeOf(fromLog(text, edit))], params, contract);

describe('a list over the log cap: cut, its items counted', () => {
  const long = listOf(100);

  it('is longer than the cap, recorded cut with the count of the whole list', () => {
    expect(long.length).toBeGreaterThan(LIST_BODY_CHARS);
    const exchange = recorded(long);
    expect(exchange.response).toMatchObject({ bodyTruncated: true, items: 100, size: long.length });
    const entry = fromLog(long);
    expect(entry).toMatchObject({ bodyCut: true, items: 100 });
    // The rule judges the cut list, so re-judging does not leave its test unproven.
    expect(judgmentRule('list-length')?.judgesCut?.(ruleExchangeOf(entry))).toBe(true);
  });

  it('list-length counts the whole list: its bounds hold or fail as on the live response', () => {
    expect(listLength(long, { min: 100, max: 100 }).holds).toBe(true);
    expect(listLength(long, { max: 20 })).toMatchObject({ holds: false, actual: '100 items' });
    expect(listLength(long, { min: 101 }).holds).toBe(false);
  });

  it('a count edited below the items the log kept whole fails; a cut list with no count is not judged', () => {
    expect(listLength(long, { max: 20 }, (e) => (e.response.content._items = 20))).toMatchObject({
      holds: false,
      expected: expect.stringMatching(/^a count of at least the \d+ items the log kept whole$/),
    });
    const uncounted = fromLog(long, (e) => delete e.response.content._items);
    expect(uncounted.items).toBeUndefined();
    expect(judgmentRule('list-length')?.judgesCut?.(ruleExchangeOf(uncounted))).toBe(false);
  });

  it('a list within the cap is kept whole, with no count', () => {
    const short = listOf(20);
    expect(recorded(short).response).not.toHaveProperty('items');
    expect(listLength(short, { min: 20, max: 20 }).holds).toBe(true);
  });
});
