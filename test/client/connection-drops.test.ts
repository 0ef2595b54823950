import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/client/interim-responses.ts';
import { type Exchange, createClient } from '../../src/client/index.ts';
import { runChecks } from '../../src/checks/index.ts';
import { DROP_IDLE_MS, connectionKeptOpen } from '../../src/checks/connection-checks.ts';
import type { CheckContext, Finding } from '../../src/checks/types.ts';
import { createContract } from '../../src/contract/index.ts';
import { rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'drop-key-4Lw9Tz2Qv6Hx';

/** Two listPets in a row through one keep-alive pool: what was recorded and found. */
async function twoRequests(closeReused: boolean, announce: boolean) {
  const answered = new WeakMap<object, number>();
  const server = await startServer((req, res) => {
    const count = (answered.get(req.socket) ?? 0) + 1;
    answered.set(req.socket, count);
    if (closeReused && count > 1) return void req.socket.destroy();
    sendJson(res, 200, '[]', { ...rateHeaders(Date.now(), 59 - count), ...(announce ? { Connection: 'close' } : {}) });
  });
  const exchanges: Exchange[] = [];
  const findings: Finding[] = [];
  const dispatcher = createAgent({ connections: 1 });
  const client = createClient({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    contract,
    dispatcher,
    inspect: runChecks,
    onExchange: (exchange, found) => {
      exchanges.push(exchange);
      findings.push(...found);
    },
  });
  try {
    const first = await client.listPets();
    const second = await client.listPets();
    return { first, second, exchanges, findings };
  } finally {
    await dispatcher.close();
  }
}

describe('client: a reused connection closed without an answer is the target’s, judged by HTTP-001', () => {
  it('retries once on a new connection and hands the drop to the checks: a finding of HTTP-001 on the retry’s answer', async () => {
    const { second, exchanges, findings } = await twoRequests(true, false);
    expect(second.status).toBe(200);
    expect(exchanges.map((e) => e.error?.code ?? e.response?.status)).toEqual([200, 'ERR_TARGET_UNREACHABLE', 200]);
    expect(findings).toEqual([expect.objectContaining({ requirementId: 'HTTP-001', check: 'connection-kept-open', exchangeSeq: exchanges[2]?.seq })]);
    expect(second.findings.map((f) => f.requirementId)).toEqual(['HTTP-001']);
  });

  it('finds nothing when every connection stays open, or each answer says Connection: close', async () => {
    expect((await twoRequests(false, false)).findings).toEqual([]);
    const announced = await twoRequests(true, true);
    expect(announced.findings).toEqual([]);
    expect(announced.exchanges.filter((e) => e.error)).toEqual([]);
  });

  it('leaves a drop after a longer idle time alone: a server may time out idle connections', () => {
    const ctx = { status: 200, headers: {}, droppedBefore: { error: 'connection closed', idleMs: DROP_IDLE_MS } } as unknown as CheckContext;
    expect(connectionKeptOpen.run(ctx)).toBeUndefined();
    expect(connectionKeptOpen.run({ ...ctx, droppedBefore: { error: 'connection closed', idleMs: undefined } })).toBeUndefined();
    expect(connectionKeptOpen.run({ ...ctx, droppedBefore: { error: 'connection closed', idleMs: DROP_IDLE_MS - 1 } })?.actual).toMatch(/connection closed/);
  });
});
