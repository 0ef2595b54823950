import type { Profile } from '../config/profiles.ts';
import { type Limits, type PlanName, planKeyVariable } from '../config/plans.ts';

/** How the run was made: enough for a stranger to trust the report and run it again. */
export interface RunInfo {
  suiteVersion: string;
  /** sha256 over the suite's own source, suites and spec (src/certificate/suite-identity.ts): an edited copy has another. */
  suiteIdentity?: string;
  /** The interface description's version (spec/openapi.yaml info.version). */
  specVersion: string;
  specSha256: string;
  /** The target's base URL, never with credentials; `embedded` is the in-process reference. */
  target: { url: string; embedded: boolean };
  profile: Profile;
  seed: number;
  readOnly: boolean;
  exhaust: boolean;
  strict: boolean;
  /** A partial run exits 1 (--require-complete, implied by --certify). */
  requireComplete?: boolean;
  /** The key's plan (--plan; Enterprise on the embedded reference): RATE-008 is then in scope, and a remote run shows the daily quota used. */
  plan?: PlanName;
  /** An Enterprise plan's custom limits, when stated (--plan enterprise:<perMinute>:<perDay>). */
  planLimits?: Limits;
  /** Areas or requirement ids selected with --only; absent or empty = all. */
  only?: string[];
  /** ISO 8601 timestamps. */
  startedAt: string;
  endedAt: string;
  nodeVersion: string;
  /** The exact command line that reproduces the run, with --seed; the key is written as $API_KEY. */
  command: string;
  /** i/n when this run is one shard of a sharded run. */
  shard?: string;
  /** The run's nonce (--run-nonce): every shard of one run carries the same. */
  runNonce?: string;
  /**
   * A run merged from shards (--merge-reports): how many, and whether the merge authenticated each (a MAC
   * under the shard key it gave them) or took them on trust (--trust-shards, or a merge without a key).
   */
  merged?: { shards: number; authenticated: boolean };
  /** How the target was reached, when not directly: header names (never values), the proxy (no credentials), a CA, TLS unverified. */
  network?: RunNetwork;
}

export interface RunNetwork {
  /** The names of the --header fields sent with every request. */
  headers: string[];
  /** The proxy's origin, without credentials. */
  proxy?: string;
  /** A CA was added (--ca-cert). */
  caCert?: boolean;
  /** false with --insecure: the target's TLS certificate was not verified, and the run can certify nothing. */
  tlsVerified: boolean;
}

/** The URL without user, password, query or fragment: what a report may show of a target. */
export function publicTargetUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

const KEY_FLAG = /(--(?:api|exhaust)-key(?:=|\s+))("[^"]*"|'[^']*'|\S+)/g;
const KEY_ENV = /\b((?:EXHAUST_)?API_KEY)=("[^"]*"|'[^']*'|\S+)/g;
/** --plan-key <plan>=<key>: the plan stays, the key is read from the plan's variable (FREE_PLAN_KEY, …). */
const PLAN_KEY_FLAG = /(--plan-key(?:=|\s+))("[^"]*"|'[^']*'|\S+)/g;
const PLAN_KEY_ENV = /\bASC_PLAN_KEY=("[^"]*"|'[^']*'|\S+)/g;

/**
 * The command with any key value replaced by $API_KEY. The CLI already builds it that way; this is the
 * last line of defence, because a report is an artifact that gets attached and forwarded.
 */
export function redactCommand(command: string): string {
  return command
    .replace(PLAN_KEY_FLAG, (_match, flag: string, value: string) => {
      const plan = /^["']?(free|pro|business)=/i.exec(value)?.[1];
      return `${flag}${plan ?? '<plan>'}="$${plan ? planKeyVariable(plan) : 'PLAN_KEY'}"`;
    })
    .replace(PLAN_KEY_ENV, (match, value: string) => (/^["']?\$\{?ASC_PLAN_KEY\}?["']?$/.test(value) ? match : 'ASC_PLAN_KEY="$ASC_PLAN_KEY"'))
    .replace(KEY_FLAG, (_match, flag: string) => `${flag}${flag.startsWith('--exhaust') ? '"$EXHAUST_API_KEY"' : '"$API_KEY"'}`)
    .replace(KEY_ENV, (match, name: string, value: string) => (new RegExp(`^["']?\\$\\{?${name}\\}?["']?$`).test(value) ? match : `${name}="$${name}"`));
}

/** A copy fit for a report: credentials stripped from the target and the command. */
export function sanitizeRunInfo(info: RunInfo): RunInfo {
  return { ...info, target: { ...info.target, url: publicTargetUrl(info.target.url) }, command: redactCommand(info.command) };
}

/** How the target was reached, in one line: the headers by name, the proxy, the CA, and TLS unverified loudly. */
export function networkText(network: RunNetwork): string {
  const parts = [
    ...(network.tlsVerified ? [] : ["TLS NOT VERIFIED (--insecure): the target's certificate was not checked, and this run certifies nothing"]),
    ...(network.headers.length > 0 ? [`headers sent with every request: ${network.headers.join(', ')}`] : []),
    ...(network.proxy ? [`through the proxy ${network.proxy}`] : []),
    ...(network.caCert ? ['with an added CA (--ca-cert)'] : []),
  ];
  const flags = curlNetworkFlags(network);
  return [...parts, ...(flags ? [`the curl lines leave these out: add ${flags}`] : [])].join('; ');
}

/**
 * The curl options that reach the target as the run did. Curl lines carry neither the --header values
 * (gateway tokens are secrets like the key) nor the proxy and CA, so each failure's line needs these
 * added; the values are placeholders the reader fills in, never recorded.
 */
export function curlNetworkFlags(network: RunNetwork): string {
  return [
    ...network.headers.map((name) => `-H '${name}: <its --header value>'`),
    ...(network.proxy ? [`--proxy '${network.proxy.replace(/'/g, '')}'`] : []),
    ...(network.caCert ? ['--cacert <the --ca-cert file>'] : []),
    ...(network.tlsVerified ? [] : ['--insecure']),
  ].join(' ');
}
