import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { FaultName, ReferenceServer } from '../../src/reference/index.ts';
import { type FaultProbe, bodyOf, call, createPet } from './fault-probe.ts';
import { KEY } from '../support/reference-server.ts';

const pet = { name: 'Rex', categoryId: 7, status: 'sold' };

/** GET with the request target in absolute-form (`GET http://host:port/v1/pets`), as clients send to a proxy. */
function absoluteForm(server: ReferenceServer, path: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method: 'GET', path: `${server.url}${path}`, headers: { authorization: `Bearer ${KEY}` } });
    req.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A request written without a Host header, as an HTTP/1.1 client never should: the status line answered. */
function hostless(server: ReferenceServer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.end(`GET ${new URL(server.url).pathname}/pets HTTP/1.1\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

/** Two GETs in turn on one keep-alive connection: each one's status, or the error that ended it. */
async function twoOnOneConnection(server: ReferenceServer): Promise<Array<number | string>> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<number | string>((resolve) => {
      const req = httpRequest(`${server.url}/pets?limit=1`, { agent, headers: { authorization: `Bearer ${KEY}` } });
      req.on('response', (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end();
    });
  try {
    return [await get(), await get()];
  } finally {
    agent.destroy();
  }
}

/** Probes of the faults about status codes, body shapes, Error bodies, validation and the store. */
export const HTTP_PROBES: Partial<Record<FaultName, FaultProbe>> = {
  'create-returns-200': { run: async ({ server }) => (await createPet(server, pet)).status },
  'unknown-pet-200-null': { run: async ({ server }) => bodyOf(await call(server, 'GET', '/pets/999')) },
  'invalid-body-422': { run: async ({ server }) => (await createPet(server, { name: 'a', categoryId: 'x' })).status },
  'malformed-json-500': { run: async ({ server }) => (await createPet(server, '{"name":')).status },
  'unicode-name-500': { run: async ({ server }) => (await createPet(server, { name: 'Flöckchen', categoryId: 1 })).status },
  'limit-abc-500': { run: async ({ server }) => (await call(server, 'GET', '/pets?limit=abc')).status },
  'petid-parsed-leniently': {
    run: async ({ server }) => {
      await createPet(server, pet);
      return [(await call(server, 'GET', '/pets/1.5')).status, (await call(server, 'GET', '/pets/1abc')).status];
    },
  },
  'location-missing': { run: async ({ server }) => (await createPet(server, pet)).headers.location },
  'content-type-not-checked': {
    run: async ({ server }) => (await call(server, 'POST', '/pets', { body: JSON.stringify(pet), headers: { 'content-type': 'text/plain' } })).status,
  },
  'auth-bearer-separator-unchecked': {
    run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null, headers: { authorization: `Bearer:${KEY}` } })).status,
  },
  'allow-missing-on-405': { run: async ({ server }) => (await call(server, 'DELETE', '/pets')).headers.allow },
  'percent-encoded-id-refused': {
    run: async ({ server }) => {
      const { id } = (await createPet(server, pet)).json as { id: bigint | number };
      const encoded = [...String(id)].map((c) => `%3${c}`).join('');
      return (await call(server, 'GET', `/pets/${encoded}`)).status;
    },
  },
  'reused-connection-dropped': { run: async ({ server }) => twoOnOneConnection(server) },
  'hostless-request-500': { run: async ({ server }) => hostless(server) },
  'absolute-form-not-found': { run: async ({ server }) => (await absoluteForm(server, '/pets?limit=1')).status },
  'base-path-without-version': {
    run: async ({ server }) => [server.url.endsWith('/v1'), (await call(server, 'GET', '//v1/pets')).status],
  },

  'pet-wrapped-in-data': { run: async ({ server }) => Object.keys((await createPet(server, pet)).json as object) },
  'id-as-string': { run: async ({ server }) => typeof ((await createPet(server, pet)).json as { id: unknown }).id },
  'category-id-as-string': {
    run: async ({ server }) => typeof ((await createPet(server, pet)).json as { categoryId: unknown }).categoryId,
  },
  'status-outside-enum': { run: async ({ server }) => ((await createPet(server, pet)).json as { status: unknown }).status },
  'pet-missing-id': { run: async ({ server }) => 'id' in ((await createPet(server, pet)).json as object) },
  'status-dropped-on-create': {
    run: async ({ server }) => {
      await createPet(server, pet);
      return bodyOf(await call(server, 'GET', '/pets?status=sold'));
    },
  },
  'name-trimmed': { run: async ({ server }) => ((await createPet(server, { name: '  Rex ', categoryId: 1 })).json as { name: string }).name },
  'name-truncated': {
    run: async ({ server }) => ((await createPet(server, { name: 'x'.repeat(100), categoryId: 1 })).json as { name: string }).name.length,
  },
  'default-status-invalid': { run: async ({ server }) => (await createPet(server, { name: 'a', categoryId: 1 })).json },
  'json-as-text-plain': { run: async ({ server }) => (await call(server, 'GET', '/pets')).headers['content-type'] },

  'error-missing-code': { run: async ({ server }) => bodyOf(await call(server, 'GET', '/pets/999')) },
  'error-missing-message': { run: async ({ server }) => bodyOf(await call(server, 'GET', '/pets/999')) },
  'error-status-mismatch': { run: async ({ server }) => bodyOf(await call(server, 'GET', '/pets/999')) },
  'error-empty-code': { run: async ({ server }) => bodyOf(await call(server, 'GET', '/pets', { key: null })) },
  'error-not-json': { run: async ({ server }) => bodyOf(await call(server, 'GET', '/pets', { key: null })) },
  'rate-limited-text-plain': {
    options: { keys: [{ key: 'small-key-0000000000', plan: 'enterprise', perMinute: 1, perDay: 100 }] },
    run: async ({ server }) => {
      await call(server, 'GET', '/pets', { key: 'small-key-0000000000' });
      const refused = await call(server, 'GET', '/pets', { key: 'small-key-0000000000' });
      return [refused.status, refused.headers['content-type'], refused.text, refused.headers['retry-after'] !== undefined];
    },
  },

  'missing-name-accepted': { run: async ({ server }) => (await createPet(server, { categoryId: 1 })).status },
  'categoryid-numeric-string-accepted': { run: async ({ server }) => (await createPet(server, { name: 'a', categoryId: '42' })).status },
  'status-not-validated': { run: async ({ server }) => (await createPet(server, { name: 'a', categoryId: 1, status: 'lost' })).status },
  'categoryid-overflow-wrapped': {
    run: async ({ server }) => bodyOf(await createPet(server, '{"name":"a","categoryId":9223372036854775808}')),
  },

  'lost-write': {
    run: async ({ server }) => {
      const created = (await createPet(server, pet)).json as { id: number };
      return [(await call(server, 'GET', `/pets/${created.id}`)).status, server.pets];
    },
  },
  'duplicate-write': {
    run: async ({ server }) => {
      await createPet(server, pet);
      return bodyOf(await call(server, 'GET', '/pets'));
    },
  },
  'list-cached-per-query': {
    run: async ({ server }) => {
      const before = bodyOf(await call(server, 'GET', '/pets?status=sold'));
      await createPet(server, { ...pet, status: 'sold' });
      return [before, bodyOf(await call(server, 'GET', '/pets?status=sold'))];
    },
  },
  'id-reuse': {
    run: async ({ server }) => [(await createPet(server, pet)).json, (await createPet(server, pet)).json],
  },
  'category-id-through-double': {
    run: async ({ server }) => (await createPet(server, '{"name":"a","categoryId":9223372036854775807}')).text,
  },
  'integer-forms-through-double': {
    run: async ({ server }) => (await createPet(server, '{"name":"a","categoryId":9007199254740993.0}')).text,
  },
  'integer-forms-refused': {
    run: async ({ server }) => (await createPet(server, '{"name":"a","categoryId":1e3}')).status,
  },
  'large-id-rounded': {
    run: async ({ server }) => {
      const created = await createPet(server, pet);
      const id = String((created.json as { id: bigint | number }).id);
      return [created.headers.location === `/v1/pets/${id}`, (await call(server, 'GET', `/pets/${id}`)).status];
    },
  },
  'get-returns-other-pet': {
    run: async ({ server }) => {
      await createPet(server, { name: 'first', categoryId: 1 });
      const second = (await createPet(server, { name: 'second', categoryId: 2 })).json as { id: number };
      return bodyOf(await call(server, 'GET', `/pets/${second.id}`));
    },
  },
  'list-drops-newest': {
    run: async ({ server }) => {
      await createPet(server, { name: 'first', categoryId: 1 });
      await createPet(server, { name: 'second', categoryId: 2 });
      return bodyOf(await call(server, 'GET', '/pets'));
    },
  },
  'list-drops-oldest': {
    run: async ({ server }) => {
      await createPet(server, { name: 'first', categoryId: 1 });
      await createPet(server, { name: 'second', categoryId: 2 });
      return bodyOf(await call(server, 'GET', '/pets'));
    },
  },
};
