import type { IndependentFaultName } from '../../src/reference/index.ts';
import { type FaultProbe, bodyOf, call, createPet } from './fault-probe.ts';
import { KEY } from '../support/reference-server.ts';

/** Probes of the independent faults in authentication, rate limiting and the Error body. */

const TIGHT = (perMinute: number) => ({ keys: [{ key: KEY, plan: 'pro', perMinute, perDay: 1_000 }] });

const status: (path: string, options?: Parameters<typeof call>[3]) => FaultProbe['run'] =
  (path, options) =>
  async ({ server }) =>
    (await call(server, 'GET', path, options)).status;

/** The headers of the second of two listPets calls with a one-request quota: a 429. */
function secondOf(...names: string[]): FaultProbe {
  return {
    options: TIGHT(1),
    run: async ({ server }) => {
      await call(server, 'GET', '/pets');
      const refused = await call(server, 'GET', '/pets');
      return [refused.status, ...names.map((name) => refused.headers[name])];
    },
  };
}

function header(name: string, method: string, path: string, options: FaultProbe['options'] = {}): FaultProbe {
  return {
    options: { seedPets: 1, ...options },
    run: async ({ server }) => (method === 'POST' ? await createPet(server, { name: 'a', categoryId: 1 }) : await call(server, method, path)).headers[name],
  };
}

export const ACCESS_PROBES: Partial<Record<IndependentFaultName, FaultProbe>> = {
  'ind-auth-any-scheme': { run: status('/pets', { key: null, headers: { authorization: `Token ${KEY}` } }) },
  'ind-auth-key-prefix': { run: status('/pets', { key: KEY.slice(0, 10) }) },
  'ind-auth-key-case-insensitive': { run: status('/pets', { key: KEY.toUpperCase() }) },
  'ind-auth-query-key': { run: status(`/pets?api_key=${KEY}`, { key: null }) },
  'ind-auth-empty-key-configured': { run: status('/pets', { key: null, headers: { authorization: 'Bearer ' } }) },
  'ind-auth-public-list': { run: status('/pets', { key: null }) },
  'ind-auth-validate-first': { run: async ({ server }) => (await createPet(server, {}, { key: null })).status },
  'ind-auth-401-plain-text': { run: async ({ server }) => bodyOf(await call(server, 'GET', '/pets', { key: null })) },
  'ind-auth-wrong-key-403': { run: status('/pets', { key: 'not-the-key' }) },
  'ind-auth-no-challenge': { run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null })).headers['www-authenticate'] },
  'ind-auth-scheme-case-sensitive': { run: status('/pets', { key: null, headers: { authorization: `bearer ${KEY}` } }) },

  'ind-rate-reset-milliseconds': header('x-ratelimit-reset', 'GET', '/pets'),
  'ind-rate-reset-seconds-left': header('x-ratelimit-reset', 'GET', '/pets'),
  'ind-rate-limit-hardcoded': header('x-ratelimit-limit', 'GET', '/pets'),
  'ind-rate-remaining-negative': secondOf('x-ratelimit-remaining'),
  'ind-rate-headers-success-only': header('x-ratelimit-limit', 'GET', '/pets/999'),
  'ind-rate-headers-not-on-create': header('x-ratelimit-limit', 'POST', '/pets'),
  'ind-rate-no-retry-after': secondOf('retry-after'),
  'ind-rate-retry-after-iso': secondOf('retry-after'),
  'ind-rate-retry-after-minutes': secondOf('retry-after'),
  'ind-rate-refuse-one-early': {
    options: TIGHT(2),
    run: async ({ server }) => {
      await call(server, 'GET', '/pets');
      return (await call(server, 'GET', '/pets')).status;
    },
  },
  'ind-rate-refuse-one-late': secondOf(),
  'ind-rate-penalty-window': {
    options: TIGHT(1),
    run: async ({ server, clock }) => {
      await call(server, 'GET', '/pets');
      const refused = await call(server, 'GET', '/pets');
      clock.advance(Number(refused.headers['retry-after']) * 1000);
      return (await call(server, 'GET', '/pets')).status;
    },
  },

  'ind-err-status-as-string': { run: async ({ server }) => (await call(server, 'GET', '/pets/999')).json },
  'ind-err-status-template-400': { run: async ({ server }) => (await call(server, 'GET', '/pets/999')).json },
  'ind-err-framework-400-shape': { run: async ({ server }) => (await createPet(server, {})).json },
  'ind-err-message-list': { run: async ({ server }) => (await createPet(server, {})).json },
  'ind-err-404-no-message': { run: async ({ server }) => (await call(server, 'GET', '/pets/999')).json },
  'ind-err-empty-code': { run: async ({ server }) => (await call(server, 'GET', '/pets', { key: null })).json },
};
