import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/index.ts';
import { readHarEntries } from '../../src/certificate/rejudge-har.ts';
import { findingsOfRecord } from '../../src/certificate/recorded-checks.ts';
import { createClient, type Exchange } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { toHar } from '../../src/report/har.ts';
import { startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'sk-live-Limit-12345678';

/** One getPet answered with these headers and body. */
async function answered(headers: Record<string, string>, body: string): Promise<Exchange> {
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
    res.end(body);
  });
  const exchanges: Exchange[] = [];
  const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, onExchange: (e) => exchanges.push(e) });
  await client.getPet(1n);
  return exchanges[0]!;
}

const PET = '{"id":1,"name":"Rex","categoryId":2,"status":"available"}';
const RATE = { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59', 'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 30) };

describe('an answer redaction changed is marked so, and its record read as rejudge reads it', () => {
  it('an answer with nothing like the key: not marked, and the record gives what the answer gave', async () => {
    const exchange = await answered(RATE, PET);
    expect(exchange.response?.redacted).toBeUndefined();
    expect(findingsOfRecord(exchange, contract)).toEqual([]);
  });

  it('a header holding eight of the key characters in a row: marked, in the log too, and the record fails RATE-002', async () => {
    const exchange = await answered({ ...RATE, 'X-RateLimit-Limit': '12345678', 'X-RateLimit-Remaining': '12345677' }, PET);
    expect(exchange.response?.redacted).toBe(true);
    const read = readHarEntries(JSON.parse(JSON.stringify(toHar([exchange], { name: 'test', version: '0' }))));
    if (!('entries' in read)) throw new Error(read.problem);
    expect(read.entries[0]?.redacted).toBe(true);
    expect(findingsOfRecord(exchange, contract).map((f) => f.requirementId)).toContain('RATE-002');
  });

  it('a body holding the key: marked', async () => {
    const exchange = await answered(RATE, PET.replace('Rex', KEY));
    expect(exchange.response?.redacted).toBe(true);
    expect(exchange.response?.body).not.toContain(KEY);
  });
});
