import { readFileSync } from 'node:fs';

/** The product token the suite names itself with: honest, so a target's logs show who sent the traffic. */
export const USER_AGENT_PRODUCT = 'animal-store-conformance';

const USER_AGENT = 'user-agent';

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
