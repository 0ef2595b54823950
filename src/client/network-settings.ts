import { rootCertificates } from 'node:tls';
import type { Agent, Dispatcher, Pool as PoolTypes, buildConnector } from 'undici';
import { Pool, ProxyAgent } from './undici-core.ts';

/**
 * How the run reaches a remote target: headers a gateway in front of it wants, a proxy, the CA it trusts.
 * Plain data: it crosses from the main process to the test workers.
 */
export interface NetworkSettings {
  /** Sent with every request (--header); their values are redacted like the key. */
  readonly headers: readonly (readonly [string, string])[];
  /** An HTTP proxy URL (--proxy, or HTTPS_PROXY / HTTP_PROXY when NO_PROXY does not name the host). */
  readonly proxy?: string;
  /** Where the proxy came from, in words (`--proxy`, `HTTPS_PROXY (environment)`). */
  readonly proxyFrom?: string;
  /**
   * A second network path (--vantage-proxy), for CON-004's differential requests alone: a target that
   * latches on the address the suite's traffic comes from meets these from one it has not seen.
   */
  readonly vantageProxy?: string;
  /** A PEM CA the target's certificate may chain to, besides Node's bundled ones (--ca-cert). */
  readonly caCert?: string;
  /** The target's TLS certificate is not verified (--insecure): never a certificate. */
  readonly insecure: boolean;
}

/** No proxy, no extra header, TLS verified: the embedded reference, and every run that sets nothing. */
export const DIRECT: NetworkSettings = Object.freeze({ headers: [], insecure: false });

/** What must never be shown: the --header values, and the proxy's credentials. */
export function networkSecrets(network: NetworkSettings): string[] {
  const secrets = network.headers.map(([, value]) => value);
  for (const proxy of [network.proxy, network.vantageProxy]) {
    if (proxy === undefined) continue;
    const url = new URL(proxy);
    if (url.password) secrets.push(decodeURIComponent(url.password));
    if (url.username) secrets.push(decodeURIComponent(url.username));
  }
  // A value of a few characters cannot be told from ordinary text: redacting it would blank every match.
  return secrets.filter((secret) => secret.length >= 6);
}

/** TLS options for connections to the target. */
export function targetTls(network: NetworkSettings): buildConnector.BuildOptions {
  return {
    ...(network.caCert ? { ca: [...rootCertificates, network.caCert] } : {}),
    ...(network.insecure ? { rejectUnauthorized: false } : {}),
  };
}

/** Wraps a connector so that the sockets it makes pass through `adapt`. */
export type SocketAdapter = (connect: buildConnector.connector) => buildConnector.connector;

/**
 * The dispatcher of a run's requests: direct, or through the proxy (http targets in forward form, https
 * targets through a CONNECT tunnel), its sockets adapted by `adapt` either way.
 */
export function proxiedDispatcher(network: NetworkSettings, options: Omit<Agent.Options, 'connect'>, adapt: SocketAdapter): Dispatcher | undefined {
  if (network.proxy === undefined) return undefined;
  return new ProxyAgent({
    ...options,
    uri: network.proxy,
    proxyTunnel: false,
    requestTls: targetTls(network),
    factory: (origin, poolOptions) => {
      const { connect } = poolOptions as PoolTypes.Options;
      return new Pool(origin, { ...(poolOptions as PoolTypes.Options), ...(typeof connect === 'function' ? { connect: adapt(connect) } : {}) });
    },
  });
}

/**
 * An interceptor that adds the run's --header fields to every request a dispatcher sends (a gateway's token
 * must reach the target even with the requests that test a missing key). A field the request sets itself wins.
 */
export function withHeaders(fields: NetworkSettings['headers']): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const own = options.headers;
    const merged: Record<string, string | string[]> = {};
    if (Array.isArray(own)) {
      for (let i = 0; i + 1 < own.length; i += 2) merged[String(own[i])] = own[i + 1] as string;
    } else if (own && typeof own === 'object') {
      for (const [name, value] of Object.entries(own as Record<string, string | string[] | undefined>)) if (value !== undefined) merged[name] = value;
    }
    const present = new Set(Object.keys(merged).map((name) => name.toLowerCase()));
    for (const [name, value] of fields) if (!present.has(name.toLowerCase())) merged[name] = value;
    return dispatch({ ...options, headers: merged }, handler);
  };
}
