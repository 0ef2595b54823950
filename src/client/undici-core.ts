import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/**
 * The parts of undici the suite uses (its dispatchers, `request`, the connector), loaded without undici's
 * index. The index also loads fetch, WebSocket, the caches, the mocks and the interceptors, which the
 * suite never uses: about two thirds of undici's load time, paid by every worker of every run before its
 * first request. As the index does, the API methods (`connect`, `request`…) are put on every dispatcher:
 * a ProxyAgent opens its tunnel with `connect`.
 *
 * The paths are undici's own modules, pinned by the lockfile; test/client/undici-core.test.ts holds each
 * export to be the very class or function the index exports, so an undici whose layout moved fails there.
 * An installed package may share an undici of another 7.x release with its host project: where one of
 * these modules is not found, or is not a function as expected, the parts come from the index, as before.
 * Every other module takes undici's values from here (eslint's no-restricted-imports); types may come
 * from 'undici' itself, since a type import loads nothing.
 */

/** `request` options as undici takes them beside a URL: the dispatcher (else the global one) and the rest. */
export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher?: Undici.Dispatcher };

/** What the suite takes from undici. */
export interface UndiciParts {
  Agent: typeof Undici.Agent;
  Client: typeof Undici.Client;
  Pool: typeof Undici.Pool;
  ProxyAgent: typeof Undici.ProxyAgent;
  buildConnector: typeof Undici.buildConnector;
  getGlobalDispatcher: typeof Undici.getGlobalDispatcher;
  /** undici's `request(url, options)`. */
  request(url: string, options: RequestOptions): Promise<Undici.Dispatcher.ResponseData>;
}

interface Api {
  request(this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions): Promise<Undici.Dispatcher.ResponseData>;
  connect: unknown;
}

interface Util {
  parseURL(url: string | URL): URL;
}

/**
 * The parts from undici's own modules, or from its index where one of them is not found or is not what
 * this project was built against (a function where a class or function should be).
 */
export function undiciParts(load: (id: string) => unknown): UndiciParts {
  let parts: UndiciParts | undefined;
  try {
    parts = fromModules(load);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
  }
  if (parts) return parts;
  const index = load('undici') as typeof Undici;
  const { Agent, Client, Pool, ProxyAgent, buildConnector, getGlobalDispatcher, request } = index;
  return { Agent, Client, Pool, ProxyAgent, buildConnector, getGlobalDispatcher, request };
}

function fromModules(load: (id: string) => unknown): UndiciParts | undefined {
  const Dispatcher = load('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
  const api = load('undici/lib/api/index.js') as Api;
  const util = load('undici/lib/core/util.js') as Util;
  const globalModule = load('undici/lib/global.js') as Pick<typeof Undici, 'getGlobalDispatcher'>;
  const parts = {
    Agent: load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent,
    Client: load('undici/lib/dispatcher/client.js') as typeof Undici.Client,
    Pool: load('undici/lib/dispatcher/pool.js') as typeof Undici.Pool,
    ProxyAgent: load('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent,
    buildConnector: load('undici/lib/core/connect.js') as typeof Undici.buildConnector,
    getGlobalDispatcher: globalModule?.getGlobalDispatcher,
  };
  // Not the layout this project was built against: the index, which every 7.x release keeps, serves.
  const expected = [Dispatcher, api?.request, api?.connect, util?.parseURL, ...Object.values(parts)];
  if (!expected.every((part) => typeof part === 'function')) return undefined;
  Object.assign(Dispatcher.prototype, api);
  const { parseURL } = util;
  const { getGlobalDispatcher } = parts;
  return {
    ...parts,
    // The URL read as undici's index reads it (its own parseURL), sent on the dispatcher given or the global one.
    request(url, options) {
      const { dispatcher = getGlobalDispatcher(), ...rest } = options;
      const parsed = parseURL(url);
      const path = parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname;
      return api.request.call(dispatcher, { ...rest, origin: parsed.origin, path });
    },
  };
}

export const { Agent, Client, Pool, ProxyAgent, buildConnector, getGlobalDispatcher, request } = undiciParts(createRequire(import.meta.url));
