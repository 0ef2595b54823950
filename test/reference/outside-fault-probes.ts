import type { ReferenceOptions, ReferenceServer } from '../../src/reference/index.ts';
import type { OutsideFaultName } from '../../src/reference/faults/all-faults.ts';
import { type Answer, KEY, call, createPet } from '../support/reference-server.ts';

/**
 * For each outside fault, a few requests whose answers differ between the correct reference and the
 * reference with that fault: what the probe returns is the part of the answers the fault changes.
 */
export interface OutsideProbe {
  /** Server options beyond the helper's (same for both servers). */
  readonly options?: ReferenceOptions;
  readonly observe: (server: ReferenceServer) => Promise<unknown>;
}

const header = (answer: Answer, name: string) => answer.headers[name];
const list = (server: ReferenceServer, query = '') => call(server, 'GET', `/pets${query}`);
const length = (answer: Answer) => (Array.isArray(answer.json) ? answer.json.length : undefined);
const TIGHT_KEY = { key: KEY, plan: 'enterprise', perMinute: 1, perDay: 1_000 } as const;

async function statusesAfter(server: ReferenceServer, requests: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < requests; i++) statuses.push((await list(server)).status);
  return statuses.slice(-1);
}

export const OUTSIDE_PROBES: Readonly<Record<OutsideFaultName, OutsideProbe>> = {
  'out-default-limit-all': { options: { seedPets: 25 }, observe: async (s) => length(await list(s)) },
  'out-limit-100-refused': { observe: async (s) => (await list(s, '?limit=100')).status },
  'out-limit-uncapped': {
    options: { seedPets: 120 },
    observe: async (s) => {
      const answer = await list(s, '?limit=150');
      return [answer.status, length(answer)];
    },
  },
  'out-list-envelope': { options: { seedPets: 2 }, observe: async (s) => Array.isArray((await list(s)).json) },
  'out-status-filter-ignored': {
    observe: async (s) => {
      await createPet(s, { name: 'a', categoryId: 1, status: 'available' });
      await createPet(s, { name: 'b', categoryId: 1, status: 'sold' });
      return length(await list(s, '?status=sold'));
    },
  },
  'out-list-text-html': { observe: async (s) => header(await list(s), 'content-type') },
  'out-create-status-any-string': { observe: async (s) => (await createPet(s, { name: 'a', categoryId: 1, status: 'adopted' })).status },
  'out-categoryid-numeric-string': { observe: async (s) => (await createPet(s, { name: 'a', categoryId: '7' })).status },
  'out-categoryid-double-rounding': {
    observe: async (s) => (await createPet(s, '{"name":"a","categoryId":9007199254740993}')).text.match(/"categoryId":(\d+)/)?.[1],
  },
  'out-unknown-field-500': { observe: async (s) => (await createPet(s, { name: 'a', categoryId: 1, color: 'red' })).status },
  'out-status-null-rendered': { observe: async (s) => (await createPet(s, { name: 'a', categoryId: 1 })).text.includes('"status"') },
  'out-id-as-string': { observe: async (s) => typeof ((await createPet(s, { name: 'a', categoryId: 1 })).json as { id: unknown }).id },
  'out-petid-overflow-500': { observe: async (s) => (await call(s, 'GET', '/pets/9223372036854775808')).status },
  'out-create-200': { observe: async (s) => (await createPet(s, { name: 'a', categoryId: 1 })).status },
  'out-missing-pet-200-null': { observe: async (s) => (await call(s, 'GET', '/pets/999')).status },
  'out-error-status-string': { observe: async (s) => typeof ((await call(s, 'GET', '/pets/999')).json as { status: unknown }).status },
  'out-sunset-day-month-swapped': { options: { seedPets: 1 }, observe: async (s) => header(await call(s, 'GET', '/pets/1'), 'sunset') },
  'out-auth-query-key': { observe: async (s) => (await call(s, 'GET', `/pets?api_key=${KEY}`, { key: null })).status },
  'out-auth-token-prefix': { observe: async (s) => (await call(s, 'GET', '/pets', { key: `${KEY}x` })).status },
  'out-reset-relative': { observe: async (s) => Number(header(await list(s), 'x-ratelimit-reset')) > 1_000_000_000 },
  'out-remaining-before-count': { observe: async (s) => header(await list(s), 'x-ratelimit-remaining') },
  'out-401-no-rate-headers': { observe: async (s) => header(await call(s, 'GET', '/pets', { key: null }), 'x-ratelimit-limit') },
  'out-retry-after-timestamp': {
    options: { keys: [TIGHT_KEY] },
    observe: async (s) => {
      await list(s);
      return header(await list(s), 'retry-after');
    },
  },
  'out-free-plan-100': { options: { keys: [{ key: KEY, plan: 'free' }] }, observe: (s) => statusesAfter(s, 61) },
};
