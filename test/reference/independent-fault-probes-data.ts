import type { IndependentFaultName } from '../../src/reference/index.ts';
import { type FaultProbe, call, createPet } from './fault-probe.ts';

/** Probes of the independent faults in createPet's validation, the store, listPets, response shapes and deprecation. */

const created = (pet: unknown, headers?: Record<string, string>): FaultProbe['run'] =>
  async function run({ server }) {
    const answer = await createPet(server, pet, headers ? { headers } : {});
    return [answer.status, answer.text];
  };

/** The number of animals a list answers (or its status when it is not an array). */
const listed = (query: string): FaultProbe['run'] =>
  async function run({ server }) {
    const answer = await call(server, 'GET', `/pets${query}`);
    return Array.isArray(answer.json) ? answer.json.length : answer.status;
  };

const getPetHeader = (name: string): FaultProbe => ({
  options: { seedPets: 1 },
  run: async ({ server }) => (await call(server, 'GET', '/pets/1')).headers[name],
});

export const DATA_PROBES: Partial<Record<IndependentFaultName, FaultProbe>> = {
  'ind-val-type-coercion': { run: created({ name: 'a', categoryId: '42' }) },
  'ind-val-status-unchecked': { run: created({ name: 'a', categoryId: 1, status: 'adopted' }) },
  'ind-val-name-defaults-empty': { run: created({ categoryId: 1 }) },
  'ind-val-float-category-truncated': { run: created({ name: 'a', categoryId: 1.5 }) },
  'ind-val-category-unbounded': { run: created('{"name":"a","categoryId":9223372036854775808}') },
  'ind-val-category-int32-clamped': { run: created({ name: 'a', categoryId: 2 ** 40 }) },
  'ind-val-category-double': { run: created('{"name":"a","categoryId":9007199254740993}') },
  'ind-val-null-body-crash': { run: created('null') },
  'ind-val-any-content-type': { run: created({ name: 'a', categoryId: 1 }, { 'content-type': 'text/plain' }) },
  'ind-val-charset-refused': { run: created({ name: 'a', categoryId: 1 }, { 'content-type': 'application/json; charset=utf-8' }) },
  'ind-val-name-trimmed': { run: created({ name: ' Rex ', categoryId: 1 }) },
  'ind-val-name-latin1': { run: created({ name: 'Zoë', categoryId: 1 }) },
  'ind-val-name-truncated': { run: created({ name: 'x'.repeat(60), categoryId: 1 }) },

  'ind-store-every-7th-lost': {
    run: async ({ server }) => {
      for (let i = 0; i < 7; i++) await createPet(server, { name: `p${i}`, categoryId: 1 });
      return (await call(server, 'GET', '/pets?limit=100')).text;
    },
  },
  'ind-store-per-worker-ids': {
    run: async ({ server }) => [(await createPet(server, { name: 'a', categoryId: 1 })).text, (await createPet(server, { name: 'b', categoryId: 1 })).text],
  },
  'ind-store-ids-through-double': {
    run: async ({ server }) => [(await createPet(server, { name: 'a', categoryId: 1 })).text, (await createPet(server, { name: 'b', categoryId: 1 })).text],
  },
  'ind-store-petid-through-double': {
    run: async ({ server }) => {
      const id = /"id":(-?\d+)/.exec((await createPet(server, { name: 'a', categoryId: 1 })).text)?.[1];
      return (await call(server, 'GET', `/pets/${id}`)).status;
    },
  },
  'ind-store-stale-list-cache': {
    run: async ({ server }) => {
      await call(server, 'GET', '/pets');
      await createPet(server, { name: 'a', categoryId: 1 });
      return (await call(server, 'GET', '/pets')).text;
    },
  },
  'ind-store-sold-unmapped': { run: created({ name: 'a', categoryId: 1, status: 'sold' }) },

  'ind-lim-no-default': { options: { seedPets: 30 }, run: listed('') },
  'ind-lim-default-10': { options: { seedPets: 30 }, run: listed('') },
  'ind-lim-max-50': { options: { seedPets: 120 }, run: listed('?limit=100') },
  'ind-lim-one-extra': { options: { seedPets: 5 }, run: listed('?limit=1') },
  'ind-lim-status-dropped-with-limit': {
    options: { seedPets: 12 },
    run: async ({ server }) => (await call(server, 'GET', '/pets?limit=100&status=sold')).text,
  },
  'ind-lim-status-case-insensitive': { options: { seedPets: 12 }, run: listed('?status=AVAILABLE') },
  'ind-lim-sql-negative-limit': { options: { seedPets: 30 }, run: listed('?limit=-1') },
  'ind-lim-filter-after-page': { options: { seedPets: 30 }, run: listed('?limit=5&status=sold') },
  'ind-lim-text-limit-crash': { run: async ({ server }) => (await call(server, 'GET', '/pets?limit=abc')).status },

  'ind-sch-id-as-string': { run: created({ name: 'a', categoryId: 1 }) },
  'ind-sch-nested-category': { run: created({ name: 'a', categoryId: 1 }) },
  'ind-sch-status-null': { run: created({ name: 'a', categoryId: 1 }) },
  'ind-sch-create-200': { run: created({ name: 'a', categoryId: 1 }) },
  'ind-sch-create-echoes-request': { run: created({ name: 'a', categoryId: 1 }) },
  'ind-sch-list-envelope': { options: { seedPets: 1 }, run: async ({ server }) => (await call(server, 'GET', '/pets')).text },
  'ind-sch-list-text-html': { options: { seedPets: 1 }, run: async ({ server }) => (await call(server, 'GET', '/pets')).headers['content-type'] },

  'ind-sta-missing-pet-null': { run: async ({ server }) => (await call(server, 'GET', '/pets/424242')).status },
  'ind-sta-petid-crash': { run: async ({ server }) => (await call(server, 'GET', '/pets/abc')).status },
  'ind-ver-base-path-v1-0': { run: async ({ server }) => (await call(server, 'GET', '//v1/pets')).status },

  'ind-dep-getpet-gone': { options: { seedPets: 1 }, run: async ({ server }) => (await call(server, 'GET', '/pets/1')).status },
  'ind-dep-sunset-local-midnight': getPetHeader('sunset'),
  'ind-dep-sunset-iso-date': getPetHeader('sunset'),
  'ind-dep-headers-everywhere': { run: async ({ server }) => (await call(server, 'GET', '/pets')).headers.deprecation },
  'ind-dep-no-deprecation-header': getPetHeader('deprecation'),
};
