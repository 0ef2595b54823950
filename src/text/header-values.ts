/**
 * Parsers for the header values the checks and the client's pacing read. Pure functions, strict by
 * default: a check must tell a well-formed value from a tolerable one.
 */

/** A non-negative integer written with digits only, as RFC 9110 writes delay-seconds. */
export const DIGITS = /^[0-9]+$/;

/** The rate-limit headers the interface names: as received (lower case) and as messages write them. */
export const RATE_LIMIT_HEADERS = Object.freeze({
  limit: { wire: 'x-ratelimit-limit', display: 'X-RateLimit-Limit' },
  remaining: { wire: 'x-ratelimit-remaining', display: 'X-RateLimit-Remaining' },
  reset: { wire: 'x-ratelimit-reset', display: 'X-RateLimit-Reset' },
} as const);
export type RateLimitField = keyof typeof RATE_LIMIT_HEADERS;
export const RATE_LIMIT_FIELDS = Object.keys(RATE_LIMIT_HEADERS) as RateLimitField[];
/** The rate-limit headers' names as the interface writes them (X-RateLimit-Limit, …). */
export const RATE_LIMIT_NAMES: readonly string[] = RATE_LIMIT_FIELDS.map((field) => RATE_LIMIT_HEADERS[field].display);

/** A Reset at or above this is in milliseconds, not Unix seconds (1e11 s is the year 5138). */
export const RESET_MILLIS_FROM = 1e11;
/** A Reset below this is a delta in seconds, not a Unix time (1e9 s is September 2001). */
export const RESET_EPOCH_FROM = 1e9;
/**
 * How far past X-RateLimit-Reset a first 429's Retry-After may reach (RATE-012): a minute, the shortest
 * window the interface names. Less is RATE-006's (a SHOULD: the two agree within seconds).
 */
export const RETRY_AFTER_PAST_RESET_MS = 60_000;

/** A header value that is one non-negative safe integer written with digits only, else undefined. */
export function strictInteger(raw: string | undefined): number | undefined {
  if (raw === undefined || !DIGITS.test(raw)) return undefined;
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : undefined;
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

// RFC 9110 §5.6.7: recipients accept IMF-fixdate and the two obsolete forms.
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/** Epoch milliseconds of an HTTP-date (RFC 9110 §5.6.7), or undefined when it is not one. */
export function parseHttpDate(value: string, now: number = Date.now()): number | undefined {
  let m = IMF_FIXDATE.exec(value);
  if (m) return toEpoch(Number(m[3]), m[2], Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  m = ASCTIME_DATE.exec(value);
  if (m) return toEpoch(Number(m[6]), m[1], Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]));
  m = RFC850_DATE.exec(value);
  if (m) return toEpoch(twoDigitYear(Number(m[3]), now), m[2], Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  return undefined;
}

// RFC 9110 §5.6.7: a two-digit year more than 50 years ahead means the most recent past such year.
function twoDigitYear(yy: number, now: number): number {
  const current = new Date(now).getUTCFullYear();
  const year = Math.floor(current / 100) * 100 + yy;
  return year > current + 50 ? year - 100 : year;
}

function toEpoch(year: number, monthName: string | undefined, day: number, hour: number, minute: number, second: number): number | undefined {
  const month = MONTHS.indexOf(monthName ?? '');
  if (month < 0 || day < 1 || hour > 23 || minute > 59 || second > 60) return undefined;
  // A leap second (60) is legal syntax; it is read as the last second of the minute.
  const epoch = Date.UTC(year, month, day, hour, minute, Math.min(second, 59));
  // Date.UTC rolls 31 Feb over into March; a date that does not exist is not an HTTP-date.
  return new Date(epoch).getUTCDate() === day ? epoch : undefined;
}

/** The rel values of a Link header (RFC 8288): each link-value's rel, quoted or not, may list several. */
export function linkRels(link: string): string[] {
  const rels: string[] = [];
  for (const match of link.matchAll(/;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/gi)) {
    rels.push(...(match[1] ?? match[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean));
  }
  return rels;
}

/** The media type of a Content-Type value, lower-case, without parameters. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

/** A value for a finding's `actual`: quoted and cut, so a hostile header cannot flood the report. */
export function quoteValue(value: string, max = 80): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(cut);
}
