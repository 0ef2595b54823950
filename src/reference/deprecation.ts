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
// Stryker disable next-line BlockStatement: getPet is removed on 5 December 2030; before that date this path is not taken
export function isPastSunset(now: number): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: getPet is removed on 5 December 2030; before that date this path is not taken
  return now >= SUNSET_AT_MS;
}
