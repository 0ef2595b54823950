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
 * Every other module takes undici's values from here (eslint's no-restricted-imports); types may come
 * from 'undici' itself, since a type import loads nothing.
 */
const load = createRequire(import.meta.url);

interface Api {
  request(this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions): Promise<Undici.Dispatcher.ResponseData>;
}

interface Util {
  parseURL(url: string | URL): URL;
}

const DispatcherClass = load('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
const api = load('undici/lib/api/index.js') as Api;
const { parseURL } = load('undici/lib/core/util.js') as Util;
Object.assign(DispatcherClass.prototype, api);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const Client = load('undici/lib/dispatcher/client.js') as typeof Undici.Client;
export const Pool = load('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
export const ProxyAgent = load('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent;
export const buildConnector = load('undici/lib/core/connect.js') as typeof Undici.buildConnector;
export const getGlobalDispatcher = (load('undici/lib/global.js') as typeof Undici).getGlobalDispatcher;

/** `request` options as undici takes them beside a URL: the dispatcher (else the global one) and the rest. */
export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher?: Undici.Dispatcher };

/**
 * undici's `request(url, options)`: the URL read as undici reads it (its own parseURL), sent on the
 * dispatcher given, or on the global one.
 */
export function request(url: string, options: RequestOptions): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher = getGlobalDispatcher(), ...rest } = options;
  const parsed = parseURL(url);
  const path = parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname;
  return api.request.call(dispatcher, { ...rest, origin: parsed.origin, path });
}
