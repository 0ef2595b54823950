import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { Client, request } from 'undici';
import type { FaultName, ReferenceServer } from '../../src/reference/index.ts';
import { type FaultProbe, bodyOf, call, createPet } from './fault-probe.ts';
import { KEY, ROOMY_KEY } from '../support/reference-server.ts';

const NEW_PET = '{"name":"Rex","categoryId":1}';
const smallKey = { options: { keys: [ROOMY_KEY, { key: 'small-key-0000000000', plan: 'enterprise', perMinute: 2, perDay: 100 }] } } as const;

/** The body in three writes a moment apart. */
function pieces(text: string): Readable {
  const bytes = Buffer.from(text);
  const size = Math.ceil(bytes.length / 3);
  return Readable.from(
    (async function* () {
      for (let at = 0; at < bytes.length; at += size) {
        if (at > 0) await delay(15);
        yield bytes.subarray(at, at + size);
      }
    })(),
  );
}

/** createPet with headers and a body exactly as given (no Content-Type added). */
async function post(server: ReferenceServer, headers: Record<string, string>, body: string | Buffer | Readable): Promise<number> {
  const response = await request(`${server.url}/pets`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, ...headers }, body });
  await response.body.text();
  return response.statusCode;
}

/** Probes of the faults in the input families (faults/input-family-faults.ts). */
export const FAMILY_PROBES: Partial<Record<FaultName, FaultProbe>> = {
  'auth-any-six-letter-scheme': {
    run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null, headers: { authorization: `Digest ${KEY}` } })).status,
  },
  'auth-remembered-per-connection': {
    run: async ({ server }) => {
      const connection = new Client(`http://127.0.0.1:${server.port}`, { pipelining: 1 });
      try {
        const statuses: number[] = [];
        for (const authorization of [`Bearer ${KEY}`, 'Bearer not-the-key']) {
          const response = await connection.request({ method: 'GET', path: `${new URL(server.url).pathname}/pets`, headers: { authorization } });
          await response.body.text();
          statuses.push(response.statusCode);
        }
        return statuses;
      } finally {
        await connection.close();
      }
    },
  },
  'unknown-query-parameter-filters': {
    run: async ({ server }) => {
      await createPet(server, { name: 'Rex', categoryId: 1 });
      return bodyOf(await call(server, 'GET', '/pets?colour=brown'));
    },
  },
  'unknown-query-parameter-500': {
    run: async ({ server }) => (await call(server, 'GET', '/pets?colour=brown')).status,
  },
  'new-pet-mass-assignment': {
    run: async ({ server }) => {
      const first = await call(server, 'POST', '/pets', { body: NEW_PET });
      const id = (first.json as { id: bigint | number }).id;
      const second = await call(server, 'POST', '/pets', { body: `{"name":"Rex","categoryId":1,"id":${id}}` });
      return (second.json as { id: unknown }).id === id;
    },
  },
  'petid-int64-ends-refused': {
    run: async ({ server }) => [(await call(server, 'GET', `/pets/${-(2n ** 63n)}`)).status, (await call(server, 'GET', `/pets/${2n ** 63n - 1n}`)).status],
  },
  'json-charset-refused': { run: ({ server }) => post(server, { 'content-type': 'application/json; charset=utf-8' }, NEW_PET) },
  'media-type-whitespace-refused': { run: ({ server }) => post(server, { 'content-type': 'application/json ; charset=utf-8' }, NEW_PET) },
  'chunked-body-refused': { run: ({ server }) => post(server, { 'content-type': 'application/json' }, pieces(NEW_PET)) },
  'body-first-write-only': {
    run: ({ server }) => post(server, { 'content-type': 'application/json', 'content-length': String(NEW_PET.length) }, pieces(NEW_PET)),
  },
  'no-content-type-500': { run: ({ server }) => post(server, {}, NEW_PET) },
  'blank-body-500': { run: ({ server }) => post(server, { 'content-type': 'application/json' }, '  \n ') },
  'untagged-name-500': { run: ({ server }) => post(server, { 'content-type': 'application/json' }, NEW_PET) },
  'invalid-utf8-500': { run: ({ server }) => post(server, { 'content-type': 'application/json' }, Buffer.from('{"name":"\xff","categoryId":1}', 'latin1')) },
  'framework-errors-bare': {
    run: async ({ server }) => {
      const answer = await call(server, 'DELETE', '/pets');
      return [answer.status, answer.headers['x-ratelimit-limit'], answer.headers['content-type']];
    },
  },
  'retry-after-in-minutes': {
    ...smallKey,
    run: async ({ server }) => {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await call(server, 'GET', '/pets', { key: 'small-key-0000000000' }));
      return answers.map((a) => a.headers['retry-after']);
    },
  },
};
