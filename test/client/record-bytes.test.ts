import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/index.ts';
import { readHarEntries } from '../../src/certificate/rejudge-har.ts';
import { createClient, type Exchange } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { toHar } from '../../src/report/har.ts';
import { startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'sk-live-SECRET-1234567890';

/** One exchange of `operation` answered with these raw bytes. */
async function answered(bytes: Buffer, operation: 'getPet' | 'listPets' = 'getPet'): Promise<Exchange> {
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(bytes);
  });
  // The server is closed when the test finishes (startServer).
  const exchanges: Exchange[] = [];
  const client = createClient({ inspect: runChecks, baseUrl: server.baseUrl, apiKey: KEY, contract, onExchange: (e) => exchanges.push(e) });
  await (operation === 'getPet' ? client.getPet(1n) : client.listPets());
  return exchanges[0]!;
}

describe('a body is recorded as the log can judge it again', () => {
  it('a body that is not UTF-8 keeps its bytes (redacted, with their sha256), and the log reads them back', async () => {
    const bytes = Buffer.concat([Buffer.from(`{"id":1,"name":"a`), Buffer.from([0xff, 0xfe]), Buffer.from(`${KEY}","categoryId":2}`)]);
    const exchange = await answered(bytes);
    const recorded = exchange.response!;
    expect(recorded.body).toContain('\uFFFD');
    const kept = Buffer.from(recorded.bytes!.base64, 'base64');
    expect(kept.includes(Buffer.from(KEY))).toBe(false);
    expect(kept.subarray(0, 19)).toEqual(bytes.subarray(0, 19));
    expect(recorded.bytes!.sha256).toBe(createHash('sha256').update(kept).digest('hex'));
    expect(recorded.size).toBe(bytes.length);
    const har = toHar([exchange], { name: 'test', version: '0' });
    expect(har.log.entries[0]?.response.content).toMatchObject({ encoding: 'base64', text: recorded.bytes!.base64 });
    const read = readHarEntries(JSON.parse(JSON.stringify(har)));
    if (!('entries' in read)) throw new Error(read.problem);
    expect(read.entries[0]).toMatchObject({ bodyInexact: false, text: kept.toString('utf8') });
  });

  it('a UTF-8 body is text only; a list is kept whole past 4 KiB, any other body is cut there with its size', async () => {
    const plain = await answered(Buffer.from('{"id":1,"name":"\uFFFD","categoryId":2}'));
    expect(plain.response!.bytes).toBeUndefined();
    const list = `[${Array.from({ length: 100 }, (_v, i) => `{"id":${i},"name":"${'n'.repeat(80)}","categoryId":1}`).join(',')}]`;
    const whole = await answered(Buffer.from(list), 'listPets');
    expect(whole.response).toMatchObject({ body: list, size: list.length });
    expect(whole.response!.bodyTruncated).toBeUndefined();
    const cut = await answered(Buffer.from(list), 'getPet');
    expect(cut.response).toMatchObject({ bodyTruncated: true, size: list.length });
    expect(cut.response!.body).toHaveLength(4096);
  });
});
