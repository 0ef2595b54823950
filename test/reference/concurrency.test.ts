import { Agent, request } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseJson } from '../../src/text/json.ts';
import { KEY, call, startServer } from '../support/reference-server.ts';

describe('reference server: concurrency', () => {
  it('gives 1,000 concurrent creates 1,000 unique ids, each retrievable and listed once', async () => {
    const server = await startServer();
    const agent = new Agent({ connections: 100 });
    onTestFinished(() => agent.close());
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    const created = await Promise.all(
      Array.from({ length: 1_000 }, async (_, i) => {
        const response = await request(`${server.url}/pets`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `pet ${i}`, categoryId: i }),
          dispatcher: agent,
        });
        expect(response.statusCode).toBe(201);
        return parseJson(await response.body.text()) as { id: number; name: string };
      }),
    );
    const ids = new Set(created.map((pet) => pet.id));
    expect(ids.size).toBe(1_000);
    expect(server.pets).toBe(1_000);
    const read = await Promise.all(
      created.map(async (pet) => {
        const response = await request(`${server.url}/pets/${pet.id}`, { headers, dispatcher: agent });
        return { status: response.statusCode, body: parseJson(await response.body.text()) };
      }),
    );
    read.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(created[i]);
    });
    const listed = new Set<number>();
    for (const pet of server.store.all()) listed.add(Number(pet.id));
    expect(listed).toEqual(ids);
    expect((await call(server, 'GET', '/pets?limit=100')).json).toHaveLength(100);
  });
});
