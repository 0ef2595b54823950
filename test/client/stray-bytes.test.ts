import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { nothingUnasked } from '../../src/checks/connection-checks.ts';
import { runChecks } from '../../src/checks/index.ts';
import type { CheckContext, Finding } from '../../src/checks/check-types.ts';
import { createAgent } from '../../src/client/interim-responses.ts';
import { createClient } from '../../src/client/index.ts';
import { createStrayWatch } from '../../src/client/stray-bytes.ts';
import { createContract } from '../../src/contract/index.ts';
import { rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'stray-key-7Rk2Vn8Qx4Lm';
const UNASKED = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]';

/** Four listPets in a row through one watched keep-alive pool; `after` is written after each answer. */
async function fourRequests(after: string | undefined) {
  const server = await startServer((req, res) => {
    if (after !== undefined) res.once('finish', () => req.socket.writable && req.socket.write(after));
    sendJson(res, 200, '[]', rateHeaders(Date.now(), 50));
  });
  const findings: Finding[] = [];
  const watch = createStrayWatch();
  const dispatcher = createAgent({ connections: 1 }, undefined, watch.adapt);
  const client = createClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    contract,
    dispatcher,
    strayBytes: watch.take,
    inspect: runChecks,
    onExchange: (_exchange, found) => findings.push(...found),
  });
  try {
    for (let i = 0; i < 4; i += 1) {
      await client.listPets();
      // Time for bytes that follow an answer to reach the idle pooled socket (no timing is asserted).
      await delay(30);
    }
    return findings.filter((finding) => finding.check === 'nothing-unasked');
  } finally {
    await dispatcher.close();
  }
}

describe('bytes on a pooled connection while no request is in flight', () => {
  it('a response nobody asked for, after each answer, is an HTTP-001 finding on the next response, quoted', async () => {
    const found = await fourRequests(UNASKED);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]?.requirementId).toBe('HTTP-001');
    expect(found[0]?.actual).toContain('HTTP/1.1 200 OK');
  });

  it('a server that sends nothing between answers, or a 408 before it closes an idle connection, has no such finding', async () => {
    expect((await fourRequests(undefined)).map((f) => f.actual)).toEqual([]);
    expect(await fourRequests('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')).toEqual([]);
  });

  it('the check redacts and cuts what it quotes', () => {
    const ctx = { strayBefore: { bytes: `HTTP/1.1 200 OK\r\n\r\nsecret-${'y'.repeat(300)}`, count: 2 }, redact: (t: string) => t.replace('secret', '***') };
    const violation = nothingUnasked.run(ctx as unknown as CheckContext);
    expect(violation?.actual).toContain('2 connections');
    expect(violation?.actual).toContain('***');
    expect(violation?.actual.length).toBeLessThan(300);
    expect(nothingUnasked.run({} as CheckContext)).toBeUndefined();
  });
});
