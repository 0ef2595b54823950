/** listPets query parameters: read strictly here; the lenient readings a valid variant may choose are in liberties.ts. */

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

/** How the limit parameter is read: strictly (strictLimit), or as a valid variant reads it. */
export type ReadLimit = (raw: RawListQuery) => number | QueryProblem;
/** How the status filter is read: strictly (a reader of strictStatus), or as a valid variant reads it. */
export type ReadStatus = (raw: RawListQuery) => string | undefined | QueryProblem;

export interface ListQuerySettings {
  readLimit: ReadLimit;
  readStatus: ReadStatus;
}

const NO_QUERY: RawListQuery = Object.freeze({ limit: undefined, status: undefined, repeated: [] });
const DIGITS = /^\d+$/;

export function readListQuery(search: string): RawListQuery {
  if (!search) return NO_QUERY;
  const params = new URLSearchParams(search);
  const limits = params.getAll('limit');
  const statuses = params.getAll('status');
  const repeated: string[] = [];
  if (limits.length > 1) repeated.push('limit');
  if (statuses.length > 1) repeated.push('status');
  return { limit: limits[0], status: statuses[0], repeated };
}

export function interpretListQuery(raw: RawListQuery, settings: ListQuerySettings): ListQuery {
  return { limit: settings.readLimit(raw), status: settings.readStatus(raw) };
}

export function isProblem(value: unknown): value is QueryProblem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

/** The limit as the interface has it: an integer from 1 to 100, given once; 20 when absent. */
export const strictLimit: ReadLimit = (raw) => {
  const text = raw.limit;
  if (text === undefined) return DEFAULT_LIMIT;
  if (raw.repeated.includes('limit')) return { problem: 'limit must be given at most once' };
  const value = DIGITS.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= MAX_LIMIT)) {
    return { problem: `limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(text.slice(0, 40))}` };
  }
  return value;
};

/** The status filter as the interface has it: one of PetStatus, given once; no filter when absent. */
export function strictStatus(statuses: ReadonlySet<string>): ReadStatus {
  return (raw) => {
    const text = raw.status;
    if (text === undefined || statuses.has(text)) {
      if (text !== undefined && raw.repeated.includes('status')) {
        return { problem: 'status must be given at most once' };
      }
      return text;
    }
    return { problem: `status must be one of ${[...statuses].join(', ')}, got ${JSON.stringify(text.slice(0, 40))}` };
  };
}
