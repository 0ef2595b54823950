import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.ts';
import { createContract } from '../../src/contract/index.ts';
import { HarnessError } from '../../src/errors.ts';
import { fakeClock, rateHeaders, sendJson, startServer } from './test-server.ts';

const contract = createContract();

describe('client: a request undici would refuse never stalls the ones after it', () => {
  it('refuses invalid header values and odd paths locally, and the next requests are sent and answered', async () => {
    const clock = fakeClock();
    const server = await startServer((_req, res) => sendJson(res, 200, '[]', rateHeaders(clock.now())));
    const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k-invalid-1', contract, clock, timeoutMs: 2_000 });
    const odd: Array<Record<string, string>> = [{ 'x-odd': 'a\r\nb' }, { 'x-odd': '\u0100' }, { 'bad name': 'x' }];
    for (const headers of odd) {
      const refused = client.send({ method: 'GET', path: '/pets', operationId: 'listPets', headers });
      await expect(refused).rejects.toBeInstanceOf(HarnessError);
      await expect(refused).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
      // The very next request goes out and comes back.
      expect((await client.listPets({ limit: 1 })).status).toBe(200);
    }
    // Non-ASCII and control characters in a path are percent-encoded, not refused.
    for (const id of ['é', '\u0000', '😀', 'a b']) expect((await client.getPet(id)).status).toBe(200);
    expect(server.requests.length).toBe(7);
  });
});
