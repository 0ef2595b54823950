import type { FaultName } from '../../src/reference/index.ts';
import { type FaultProbe, type ProbeContext, bodyOf, call, createPet } from './fault-probe.ts';
import { KEY, ROOMY_KEY } from '../support/reference-server.ts';

const SMALL = 'small-key-0000000000';
const smallKey = { options: { keys: [ROOMY_KEY, { key: SMALL, plan: 'enterprise', perMinute: 4, perDay: 100 }] } } as const;
const seeded = { options: { seedPets: 130 } } as const;

async function limited(context: ProbeContext, count: number, path = '/pets') {
  const answers = [];
  for (let i = 0; i < count; i++) answers.push(await call(context.server, 'GET', path, { key: SMALL }));
  return answers;
}

/** The small key read, the roomy key used twice, the small key read again: its own count, or a shared one. */
async function aroundRoomyKey(context: ProbeContext) {
  const before = await call(context.server, 'GET', '/pets', { key: SMALL });
  await call(context.server, 'GET', '/pets');
  await call(context.server, 'GET', '/pets');
  return [before, await call(context.server, 'GET', '/pets', { key: SMALL })].map(rateHeaders);
}

function rateHeaders(answer: { status: number; headers: Record<string, unknown> }) {
  const { headers } = answer;
  const names = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];
  return [answer.status, ...names.map((name) => headers[name])];
}

async function lengthOf(context: ProbeContext, path: string): Promise<unknown> {
  const answer = await call(context.server, 'GET', path);
  return Array.isArray(answer.json) ? answer.json.length : answer.status;
}

/** Probes of the faults about listPets parameters, authentication, rate limiting and deprecation. */
export const ACCESS_PROBES: Partial<Record<FaultName, FaultProbe>> = {
  'limit-off-by-one': { ...seeded, run: async (c) => [await lengthOf(c, '/pets?limit=5'), await lengthOf(c, '/pets')] },
  'limit-max-50': { ...seeded, run: (c) => lengthOf(c, '/pets?limit=100') },
  'default-limit-10': { ...seeded, run: (c) => lengthOf(c, '/pets') },
  'limit-required': { ...seeded, run: (c) => lengthOf(c, '/pets') },
  'limit-ignored': { ...seeded, run: (c) => lengthOf(c, '/pets?limit=5') },
  'status-filter-ignored': {
    ...seeded,
    run: async ({ server }) => {
      const pets = (await call(server, 'GET', '/pets?status=sold')).json as Array<{ status?: string }>;
      return new Set(pets.map((p) => p.status));
    },
  },
  'unfiltered-list-drops-status': {
    run: async ({ server }) => {
      await createPet(server, { name: 'without', categoryId: 1 });
      await createPet(server, { name: 'with', categoryId: 2, status: 'pending' });
      const pets = (await call(server, 'GET', '/pets?limit=100')).json as Array<{ name?: string }>;
      return pets.map((p) => p.name);
    },
  },
  'unknown-status-returns-all': { ...seeded, run: (c) => lengthOf(c, '/pets?status=lost') },
  'limit-above-100-honoured': { ...seeded, run: (c) => lengthOf(c, '/pets?limit=101') },
  'limit-zero-honoured': { ...seeded, run: async (c) => [await lengthOf(c, '/pets?limit=0'), await lengthOf(c, '/pets?limit=-1')] },
  'status-filter-folds-case': { ...seeded, run: async ({ server }) => (await call(server, 'GET', '/pets?status=Sold')).status },
  'status-filter-needs-limit': {
    ...seeded,
    run: async ({ server }) => {
      const pets = (await call(server, 'GET', '/pets?status=sold')).json as Array<{ status?: string }>;
      return [...new Set(pets.map((p) => p.status))].sort();
    },
  },

  'auth-none': { run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null })).status },
  'auth-any-token': { run: async ({ server }) => (await call(server, 'GET', '/pets', { key: 'not-a-key' })).status },
  'auth-prefix-accepted': { run: async ({ server }) => (await call(server, 'GET', '/pets', { key: KEY.slice(0, 6) })).status },
  'auth-case-insensitive-key': { run: async ({ server }) => (await call(server, 'GET', '/pets', { key: KEY.toUpperCase() })).status },
  'auth-basic-accepted': {
    run: async ({ server }) => {
      const authorization = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;
      return (await call(server, 'GET', '/pets', { key: null, headers: { authorization } })).status;
    },
  },
  'auth-bearer-base64-accepted': { run: async ({ server }) => (await call(server, 'GET', '/pets', { key: Buffer.from(KEY).toString('base64') })).status },
  'auth-query-key-accepted': { run: async ({ server }) => (await call(server, 'GET', `/pets?api_key=${KEY}`, { key: null })).status },
  'auth-empty-token-accepted': {
    run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null, headers: { authorization: 'Bearer ' } })).status,
  },
  'auth-scheme-case-sensitive': {
    run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null, headers: { authorization: `bearer ${KEY}` } })).status,
  },
  'validate-before-auth': { run: async ({ server }) => (await createPet(server, { categoryId: 1 }, { key: null })).status },
  'not-found-before-auth': { run: async ({ server }) => (await call(server, 'GET', '/pets/999', { key: null })).status },
  'same-origin-skips-key': {
    run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null, headers: { 'sec-fetch-site': 'same-origin' } })).status,
  },
  'get-pet-refuses-valid-key': {
    run: async ({ server }) => {
      const { id } = (await createPet(server, { name: 'Rex', categoryId: 7 })).json as { id: bigint | number };
      return (await call(server, 'GET', `/pets/${id}`)).status;
    },
  },
  'unauthorized-403': { run: async ({ server }) => bodyOf(await call(server, 'GET', '/pets', { key: 'wrong' })) },
  'www-authenticate-missing': {
    run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null })).headers['www-authenticate'],
  },

  'ratelimit-headers-missing': { ...smallKey, run: async (c) => (await limited(c, 1)).map(rateHeaders) },
  'ratelimit-headers-missing-on-errors': { ...smallKey, run: async (c) => (await limited(c, 1, '/pets/999')).map(rateHeaders) },
  'ratelimit-reset-in-ms': { ...smallKey, run: async (c) => (await limited(c, 1)).map(rateHeaders) },
  'ratelimit-reports-idle-window': { ...smallKey, run: async (c) => (await limited(c, 1)).map(rateHeaders) },
  'ratelimit-reset-as-delta': { ...smallKey, run: async (c) => (await limited(c, 1)).map(rateHeaders) },
  'ratelimit-reset-jitter': { ...smallKey, run: async (c) => (await limited(c, 2)).map(rateHeaders) },
  'ratelimit-remaining-constant': { ...smallKey, run: async (c) => (await limited(c, 2)).map(rateHeaders) },
  'ratelimit-remaining-above-limit': { ...smallKey, run: async (c) => (await limited(c, 1)).map(rateHeaders) },
  'ratelimit-never-429': { ...smallKey, run: async (c) => (await limited(c, 6)).map((a) => a.status) },
  'ratelimit-429-without-retry-after': { ...smallKey, run: async (c) => (await limited(c, 5)).map(rateHeaders) },
  'ratelimit-one-extra': { ...smallKey, run: async (c) => (await limited(c, 6)).map(rateHeaders) },
  'ratelimit-429-at-half': { ...smallKey, run: async (c) => (await limited(c, 4)).map(rateHeaders) },
  'ratelimit-no-recovery': {
    ...smallKey,
    run: async (c) => {
      await limited(c, 5);
      c.clock.advance(60_000);
      return (await limited(c, 1)).map(rateHeaders);
    },
  },
  // The small key read, the roomy key used twice, the small key read again: its own count, or a shared one.
  'ratelimit-per-address': {
    ...smallKey,
    run: (c) => aroundRoomyKey(c),
  },
  // The small key spent to its 429, then the roomy key: served, or refused with it.
  'ratelimit-429-bans-every-key': {
    ...smallKey,
    run: async (c) => {
      await limited(c, 5);
      return rateHeaders(await call(c.server, 'GET', '/pets')).slice(0, 1);
    },
  },
  'retry-after-inconsistent': { ...smallKey, run: async (c) => (await limited(c, 5)).map(rateHeaders) },
  'ratelimit-counted-per-address': {
    ...smallKey,
    run: async (c) => {
      // Three requests on the roomy key first: a limiter that counts per address has then spent the small key's window.
      for (let i = 0; i < 3; i++) await call(c.server, 'GET', '/pets');
      return (await limited(c, 2)).map((a) => a.status);
    },
  },
  'ratelimit-counted-before-request': { ...smallKey, run: async (c) => (await limited(c, 5)).map(rateHeaders) },
  'ratelimit-headers-describe-day': { ...smallKey, run: async (c) => (await limited(c, 5)).map(rateHeaders) },
  'ratelimit-plan-lie': { ...smallKey, run: async (c) => (await limited(c, 5)).map(rateHeaders) },
  // The small key spent to its 429, then asked again a second later: whole again only when the minute turns every second.
  'ratelimit-window-one-second': {
    ...smallKey,
    run: async (c) => {
      const spent = await limited(c, 5);
      c.clock.advance(1_000);
      return [...spent, ...(await limited(c, 1))].map(rateHeaders);
    },
  },
  // Both keys are Enterprise: the small key read, the roomy key used twice, the small key read again.
  'ratelimit-plan-shared-per-address': {
    ...smallKey,
    run: (c) => aroundRoomyKey(c),
  },
  'retry-after-in-milliseconds': { ...smallKey, run: async (c) => (await limited(c, 5)).map(rateHeaders) },
  'ratelimit-429-not-error-body': { ...smallKey, run: async (c) => bodyOf((await limited(c, 5))[4] as never) },

  'get-removed-early-404': {
    run: async ({ server }) => {
      await createPet(server, { name: 'a', categoryId: 1 });
      return (await call(server, 'GET', '/pets/1')).status;
    },
  },
  'get-removed-early-410': {
    run: async ({ server }) => {
      await createPet(server, { name: 'a', categoryId: 1 });
      return (await call(server, 'GET', '/pets/1')).status;
    },
  },
  'sunset-wrong-date': { run: async ({ server }) => (await call(server, 'GET', '/pets/1')).headers.sunset },
  'sunset-iso-date': { run: async ({ server }) => (await call(server, 'GET', '/pets/1')).headers.sunset },
  'deprecation-header-missing': { run: async ({ server }) => (await call(server, 'GET', '/pets/1')).headers.deprecation },
  'deprecation-not-structured-date': { run: async ({ server }) => (await call(server, 'GET', '/pets/1')).headers.deprecation },
  'retry-after-on-every-response': { run: async ({ server }) => (await call(server, 'GET', '/pets')).headers['retry-after'] },
  'ietf-ratelimit-reset-disagrees': { ...smallKey, run: async (c) => (await limited(c, 1)).map((answer) => answer.headers.ratelimit) },
  'ietf-ratelimit-window-is-reset-time': { run: async ({ server }) => (await call(server, 'GET', '/pets')).headers['ratelimit-policy'] },
  'link-header-missing': { run: async ({ server }) => (await call(server, 'GET', '/pets/1')).headers.link },
  'deprecation-on-every-operation': {
    run: async ({ server }) => {
      const { headers } = await call(server, 'GET', '/pets');
      return [headers.deprecation, headers.sunset, headers.link];
    },
  },
  'successor-link-on-replacement': {
    run: async ({ server }) => {
      const listed = await call(server, 'GET', '/pets');
      const created = await createPet(server, { name: 'a', categoryId: 1 });
      return [listed.headers.link, created.headers.link, listed.headers.deprecation];
    },
  },
};
