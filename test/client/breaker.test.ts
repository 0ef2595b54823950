import { describe, expect, it } from 'vitest';
import { BREAKER_THRESHOLD, createMemoryBreaker, noAnswerReason, operationWithoutAnswer } from '../../src/client/breaker.ts';
import { createClient, type Exchange } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import type { HarnessError } from '../../src/errors.ts';
import { rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();
const KEY = 'breaker-key-0123456789';

async function failure(promise: Promise<unknown>): Promise<HarnessError> {
  try {
    await promise;
  } catch (error) {
    return error as HarnessError;
  }
  throw new Error('expected the request to fail');
}

describe('the reason an operation is no longer sent', () => {
  it('names the operation, which the report reads back to group the failures; no other text names one', () => {
    for (const operation of ['getPet', 'GET outside the interface']) {
      const reason = noAnswerReason(operation, 3, 'the target at http://127.0.0.1:1 did not complete an exchange within 2000 ms (a test of 4 times in a row)');
      expect(reason.startsWith(`no answer from ${operation} 3 times in a row (last: `)).toBe(true);
      expect(operationWithoutAnswer(reason)).toBe(operation);
    }
    expect(operationWithoutAnswer(noAnswerReason('createPet', 12, 'reset'))).toBe('createPet');
    // Only a reason the client wrote: the words quoted inside another text name nothing.
    const quoted = `the body said: ${noAnswerReason('getPet', 3, 'x')}`;
    for (const other of ['getPet got no answer 3 times in a row', 'expected an answer within --timeout', 'no answer from getPet', quoted]) {
      expect(operationWithoutAnswer(other), other).toBeUndefined();
    }
  });
});

describe('breaker: failures in a row, per key', () => {
  it('opens only after BREAKER_THRESHOLD failures in a row; an answer in between starts the count again', () => {
    const breaker = createMemoryBreaker();
    const describe = (n: number) => `getPet got no answer ${n} times in a row`;
    for (let round = 0; round < 5; round += 1) {
      for (let i = 1; i < BREAKER_THRESHOLD; i += 1) breaker.recordFailure('getPet', describe);
      expect(breaker.openReason('getPet')).toBeUndefined();
      breaker.recordSuccess('getPet');
    }
    for (let i = 0; i < BREAKER_THRESHOLD; i += 1) breaker.recordFailure('getPet', describe);
    expect(breaker.openReason('getPet')).toBe(`getPet got no answer ${BREAKER_THRESHOLD} times in a row`);
    // Open stays open: nothing is sent any more, so no answer can close it by accident.
    breaker.recordSuccess('getPet');
    expect(breaker.openReason('getPet')).toBeDefined();
  });

  it('counts each operation on its own', () => {
    const breaker = createMemoryBreaker();
    breaker.recordFailure('getPet', () => 'getPet');
    breaker.recordFailure('listPets', () => 'listPets');
    breaker.recordFailure('getPet', () => 'getPet');
    breaker.recordFailure('createPet', () => 'createPet');
    expect(['getPet', 'listPets', 'createPet'].map((k) => breaker.openReason(k))).toEqual([undefined, undefined, undefined]);
    breaker.recordFailure('getPet', (n) => `getPet ${n}`);
    expect(breaker.openReason('getPet')).toBe('getPet 3');
    expect(breaker.openReason('listPets')).toBeUndefined();
  });
});

describe('client: a dropped connection is retried once on a fresh one before it counts', () => {
  it('a target that drops every third connection is answered on the retry: 30 requests, no error, breaker closed', async () => {
    let seen = 0;
    const server = await startServer((req, res) => {
      seen += 1;
      if (seen % 3 === 0) return req.socket.resetAndDestroy();
      sendJson(res, 200, '[]', rateHeaders(Date.now(), 100_000, 100_000));
    });
    const breaker = createMemoryBreaker();
    const exchanges: Exchange[] = [];
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, breaker, onExchange: (e) => exchanges.push(e) });
    for (let i = 0; i < 30; i += 1) expect((await client.listPets()).status).toBe(200);
    expect(breaker.openReason('listPets')).toBeUndefined();
    // Every drop is in the exchange log, followed by the retry that got the answer.
    const dropped = exchanges.filter((e) => e.error);
    expect(dropped.length).toBeGreaterThanOrEqual(10);
    expect(dropped.every((e) => e.error?.code === 'ERR_TARGET_UNREACHABLE')).toBe(true);
    expect(exchanges).toHaveLength(30 + dropped.length);
  });

  it('an operation that never answers opens after 3 in a row (each retried once), with the count and the last error as evidence; the others go on', async () => {
    const server = await startServer((req, res) => {
      if (req.method === 'GET' && /\/pets\/\d+/.test(req.url ?? '')) return req.socket.resetAndDestroy();
      sendJson(res, 200, '[]', rateHeaders(Date.now(), 100_000, 100_000));
    });
    const breaker = createMemoryBreaker();
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, breaker });
    for (let i = 1; i <= BREAKER_THRESHOLD; i += 1) {
      expect((await failure(client.getPet(i))).code).toBe('ERR_TARGET_UNREACHABLE');
      // An answer to another operation does not reset this one.
      expect((await client.listPets()).status).toBe(200);
    }
    const sentBefore = server.requests.length;
    const broken = await failure(client.getPet(9));
    expect(broken.code).toBe('ERR_OPERATION_BROKEN');
    expect(server.requests.length).toBe(sentBefore);
    expect(broken.message).toMatch(
      /^no answer from getPet 3 times in a row \(last: cannot reach the target at http:\/\/127\.0\.0\.1:\d+: connection reset \(ECONNRESET\), and the same on one retry on a fresh connection\); the suite stopped sending it$/,
    );
    expect(broken.message).not.toContain(KEY);
    // Two attempts per failure: the first and its retry.
    expect(server.requests.filter((r) => r.url.includes('/pets/')).length).toBe(2 * BREAKER_THRESHOLD);
    expect((await client.listPets()).status).toBe(200);
  });

  it('failures separated by answers never open it', async () => {
    let getPets = 0;
    const server = await startServer((req, res) => {
      // Every other getPet fails on both attempts (requests 1 and 2 of 3): two failures never come in a row.
      if (req.url?.includes('/pets/')) {
        getPets += 1;
        if (getPets % 3 !== 0) return req.socket.resetAndDestroy();
        return sendJson(res, 404, '{"code":"not_found","message":"no","status":404}', rateHeaders(Date.now(), 100_000, 100_000));
      }
      sendJson(res, 200, '[]', rateHeaders(Date.now(), 100_000, 100_000));
    });
    const breaker = createMemoryBreaker();
    const client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, contract, breaker });
    for (let i = 0; i < 4 * BREAKER_THRESHOLD; i += 1) {
      const outcome = await client.getPet(i + 1).then(
        (r) => r.status,
        (e: HarnessError) => e.code,
      );
      expect(outcome).toBe(i % 2 === 0 ? 'ERR_TARGET_UNREACHABLE' : 404);
    }
    expect(breaker.openReason('getPet')).toBeUndefined();
  });
});
