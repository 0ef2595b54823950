/**
 * getPet is deprecated (RFC 9745) and announced for removal on 5 December 2030 (RFC 8594). The
 * deprecation date itself is not in the interface; any fixed past date is a truthful statement.
 */

export const DEPRECATED_AT_MS = Date.UTC(2025, 0, 1);
export const SUNSET_AT_MS = Date.UTC(2030, 11, 5);

/** `Thu, 05 Dec 2030 00:00:00 GMT` */
export const SUNSET_HTTP_DATE = new Date(SUNSET_AT_MS).toUTCString();

/** The headers every getPet response carries; one frozen object per server, shared by all replies. */
export function deprecationHeaders(basePath: string): Readonly<Record<string, string>> {
  return Object.freeze({
    deprecation: `@${DEPRECATED_AT_MS / 1000}`,
    sunset: SUNSET_HTTP_DATE,
    link: `<${basePath}/pets>; rel="successor-version"`,
  });
}

/** After the announced date the endpoint is gone (410), as the interface allows. */
export function isPastSunset(now: number): boolean {
  return now >= SUNSET_AT_MS;
}
