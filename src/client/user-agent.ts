import { readFileSync } from 'node:fs';

/** The product token the suite names itself with: honest, so a target's logs show who sent the traffic. */
export const USER_AGENT_PRODUCT = 'animal-store-conformance';

const USER_AGENT = 'user-agent';

/**
 * User-Agents of clients that call JSON APIs every day. A run's requests carry one of them by default, so a
 * target cannot pick the suite's traffic out by its User-Agent; --announce (or --user-agent) names the suite.
 */
export const COMMON_USER_AGENTS: readonly string[] = Object.freeze([
  'curl/8.5.0',
  'python-requests/2.31.0',
  'axios/1.6.8',
  'okhttp/4.12.0',
  'Go-http-client/1.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
]);

/** One of COMMON_USER_AGENTS, by `pick` (a random byte of the run's): a new one each run. */
export function commonUserAgent(pick: number): string {
  return COMMON_USER_AGENTS[pick % COMMON_USER_AGENTS.length] ?? 'curl/8.5.0';
}

/** `animal-store-conformance/<version>`, the version being the package's own. */
export function defaultUserAgent(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return `${USER_AGENT_PRODUCT}/${pkg.version}`;
}

/**
 * The headers with the client's User-Agent applied: a request's own User-Agent (any letter case) wins,
 * an empty one there means "send none", and `userAgent` (the client's; empty: none) fills it in otherwise.
 */
export function withUserAgent(headers: Record<string, string>, userAgent: string): Record<string, string> {
  const own = Object.keys(headers).find((name) => name.toLowerCase() === USER_AGENT);
  if (own !== undefined) {
    if (headers[own] !== '') return headers;
    const { [own]: _dropped, ...rest } = headers;
    return rest;
  }
  return userAgent === '' ? headers : { 'User-Agent': userAgent, ...headers };
}
