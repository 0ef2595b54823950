import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NetworkSettings } from '../client/network-settings.ts';
import { HarnessError } from '../errors.ts';
import { refuseControlCharacters } from './values.ts';

/** Headers a user may not set with --header: the suite owns them, or they would break framing. */
const OWNED_HEADERS = new Map([
  ['authorization', 'the key goes in --api-key (Authorization: Bearer <key>)'],
  ['host', 'the target URL decides it'],
  ['content-length', 'the suite frames its own requests'],
  ['transfer-encoding', 'the suite frames its own requests'],
  ['connection', 'the suite manages its connections'],
  ['content-type', 'the tests choose it per request'],
  ['user-agent', 'use --user-agent'],
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface NetworkInputs {
  target: string | undefined;
  headers: { value: readonly string[]; from: string } | undefined;
  proxy: { value: string; from: string } | undefined;
  /** Optional so that callers from before it need not name it. */
  vantageProxy?: { value: string; from: string } | undefined;
  caCert: { value: string; from: string } | undefined;
  insecure: boolean;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** --header, --proxy (or the proxy variables), --vantage-proxy, --ca-cert and --insecure as the client takes them. */
export function networkSettings(inputs: NetworkInputs): NetworkSettings {
  const headers = (inputs.headers?.value ?? []).map((line) => parseHeader(line, inputs.headers?.from ?? '--header'));
  if (inputs.target === undefined && (headers.length > 0 || inputs.proxy || inputs.vantageProxy || inputs.caCert || inputs.insecure)) {
    throw new HarnessError('ERR_CONFIG', '--header, --proxy, --vantage-proxy, --ca-cert and --insecure apply to a remote target (--target)');
  }
  return {
    headers,
    ...proxyFor(inputs),
    ...(inputs.vantageProxy ? { vantageProxy: checkProxy(inputs.vantageProxy.value, inputs.vantageProxy.from) } : {}),
    ...(inputs.caCert ? { caCert: readCa(resolve(inputs.cwd, inputs.caCert.value), inputs.caCert.from) } : {}),
    insecure: inputs.insecure,
  };
}

function parseHeader(line: string, from: string): [string, string] {
  const colon = line.indexOf(':');
  const name = colon === -1 ? '' : line.slice(0, colon).trim();
  const value = colon === -1 ? '' : line.slice(colon + 1).trim();
  if (!TOKEN.test(name)) throw new HarnessError('ERR_CONFIG', `${from} must look like 'Name: value' with a header name of letters, digits and -`);
  refuseControlCharacters(value, from, `value of ${name}`, { tab: true });
  const owned = OWNED_HEADERS.get(name.toLowerCase());
  if (owned) throw new HarnessError('ERR_CONFIG', `${from} cannot set ${name}: ${owned}`);
  return [name, value];
}

function readCa(path: string, from: string): string {
  if (!existsSync(path)) throw new HarnessError('ERR_CONFIG', `${from}: no such file: ${path}`);
  const pem = readFileSync(path, 'utf8');
  if (!/-----BEGIN CERTIFICATE-----/.test(pem)) throw new HarnessError('ERR_CONFIG', `${from}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return pem;
}

/**
 * The proxy of a remote target: --proxy always; else HTTPS_PROXY (https targets) or HTTP_PROXY (http), in
 * either letter case, unless NO_PROXY names the host or the host is loopback (as curl and Go treat them).
 */
function proxyFor(inputs: NetworkInputs): Pick<NetworkSettings, 'proxy' | 'proxyFrom'> {
  if (inputs.target === undefined) return {};
  if (inputs.proxy) return { proxy: checkProxy(inputs.proxy.value, inputs.proxy.from), proxyFrom: inputs.proxy.from };
  const target = new URL(inputs.target);
  const names = target.protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy'] : ['HTTP_PROXY', 'http_proxy'];
  const name = names.find((n) => inputs.env[n]);
  if (!name) return {};
  if (isLoopback(target.hostname) || bypassed(target, inputs.env.NO_PROXY ?? inputs.env.no_proxy ?? '')) return {};
  const from = `${name} (environment)`;
  return { proxy: checkProxy(inputs.env[name] as string, from), proxyFrom: from };
}

function checkProxy(text: string, from: string): string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new HarnessError('ERR_CONFIG', `${from} is not a proxy URL (expected http://host:port)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new HarnessError('ERR_CONFIG', `${from} must be an http:// or https:// proxy; got ${url.protocol}`);
  return url.href;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** NO_PROXY: a comma list of hosts, .domains, domain suffixes, host:port, or *. */
export function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  return noProxy
    .split(/[,\s]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [name, entryPort] = entry.startsWith('[') ? [entry.replace(/\]:\d+$/, ']'), /\]:(\d+)$/.exec(entry)?.[1]] : entry.split(':');
      if (entryPort && entryPort !== port) return false;
      const bare = (name ?? '').replace(/^\*?\./, '');
      return host === bare || host.endsWith(`.${bare}`);
    });
}
