import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/client/interim-responses.ts';
import { type Exchange, createClient } from '../../src/client/index.ts';
import { runChecks } from '../../src/checks/index.ts';
import { DROPS_SHARE, DROP_IDLE_MS, MIN_DROPS, connectionKeptOpen } from '../../src/checks/connection-checks.ts';
import type { CheckContext, Finding } from '../../src/checks/check-types.ts';
import { createContract } from '../../src/contract/index.ts';
import { rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'drop-key-4Lw9Tz2Qv6Hx';

/** Six listPets in a row through one keep-alive pool: what was recorded and found. */
async function sixRequests(closeReused: boolean, announce: boolean) {
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
    const responses = [];
    for (let i = 0; i < 6; i += 1) responses.push(await client.listPets());
    return { responses, exchanges, findings };
  } finally {
    await dispatcher.close();
  }
}

describe('client: a reused connection closed without an answer is the target’s, judged by HTTP-001', () => {
  it('retries each drop once on a new connection and hands it to the checks: from the third, a finding of HTTP-001 on the retry’s answer', async () => {
    const { responses, exchanges, findings } = await sixRequests(true, false);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const dropped = 'ERR_TARGET_UNREACHABLE';
    expect(exchanges.map((e) => e.error?.code ?? e.response?.status)).toEqual([200, dropped, 200, 200, dropped, 200, 200, dropped, 200]);
    expect(findings).toEqual([expect.objectContaining({ requirementId: 'HTTP-001', check: 'connection-kept-open', exchangeSeq: exchanges[8]?.seq })]);
    expect(responses[5]?.findings.map((f) => f.requirementId)).toEqual(['HTTP-001']);
  });

  it('finds nothing when every connection stays open, or each answer says Connection: close', async () => {
    expect((await sixRequests(false, false)).findings).toEqual([]);
    const announced = await sixRequests(true, true);
    expect(announced.findings).toEqual([]);
    expect(announced.exchanges.filter((e) => e.error)).toEqual([]);
  });

  it('leaves alone a drop after a longer idle time (a server may time out idle connections) and a blip (few drops among many answers)', () => {
    const habit = { error: 'connection closed', idleMs: DROP_IDLE_MS - 1, drops: MIN_DROPS, answered: MIN_DROPS * DROPS_SHARE };
    const ctx = { status: 200, headers: {}, droppedBefore: habit } as unknown as CheckContext;
    expect(connectionKeptOpen.run(ctx)?.actual).toMatch(/connection closed/);
    expect(connectionKeptOpen.run({ ...ctx, droppedBefore: { ...habit, idleMs: DROP_IDLE_MS } })).toBeUndefined();
    expect(connectionKeptOpen.run({ ...ctx, droppedBefore: { ...habit, idleMs: undefined } })).toBeUndefined();
    expect(connectionKeptOpen.run({ ...ctx, droppedBefore: { ...habit, drops: MIN_DROPS - 1 } })).toBeUndefined();
    expect(connectionKeptOpen.run({ ...ctx, droppedBefore: { ...habit, answered: MIN_DROPS * DROPS_SHARE + 1 } })).toBeUndefined();
  });
});
