import { defineFault } from './hooks.ts';
import { replaceWithError } from './reply-edits.ts';
import { PET_STATUSES } from './field-and-rate-edits.ts';

/**
 * listPets' limit and status filter as real servers get them wrong: defaults and maxima from a
 * framework's pagination settings, off-by-one loops, the filter applied after the page is cut, SQL's
 * own reading of LIMIT -1.
 */

const UNBOUNDED = Number.MAX_SAFE_INTEGER;

export const INDEPENDENT_LIMIT_FAULTS = [
  defineFault({
    name: 'ind-lim-no-default',
    group: 'limits',
    description: 'Without a limit parameter no LIMIT is applied: every stored animal is returned.',
    detectedBy: ['LIM-003'],
    hooks: () => ({ listQuery: (query, raw) => (raw.limit === undefined ? { ...query, limit: UNBOUNDED } : query) }),
  }),
  defineFault({
    name: 'ind-lim-default-10',
    group: 'limits',
    description: "The default page size is the framework's 10, not 20.",
    detectedBy: ['LIM-003'],
    hooks: () => ({ listQuery: (query, raw) => (raw.limit === undefined ? { ...query, limit: 10 } : query) }),
  }),
  defineFault({
    name: 'ind-lim-max-50',
    group: 'limits',
    description: 'A max page size of 50 silently caps any larger limit: limit=100 returns 50 animals when more are stored.',
    detectedBy: ['LIM-002'],
    hooks: () => ({ listQuery: (query) => (typeof query.limit === 'number' ? { ...query, limit: Math.min(query.limit, 50) } : query) }),
  }),
  defineFault({
    name: 'ind-lim-one-extra',
    group: 'limits',
    description: 'The page loop runs while i <= limit: one animal more than the limit is returned (2 for limit=1, 21 by default).',
    detectedBy: ['LIM-001', 'LIM-002', 'LIM-003', 'LIM-008'],
    hooks: () => ({ listQuery: (query) => (typeof query.limit === 'number' ? { ...query, limit: query.limit + 1 } : query) }),
  }),
  defineFault({
    name: 'ind-lim-status-dropped-with-limit',
    group: 'limits',
    description: 'When limit is given, the query builder rebuilds the query and loses the status filter.',
    detectedBy: ['LIM-005'],
    hooks: () => ({ listQuery: (query, raw) => (raw.limit !== undefined && typeof query.status === 'string' ? { ...query, status: undefined } : query) }),
  }),
  defineFault({
    name: 'ind-lim-status-case-insensitive',
    group: 'limits',
    description: 'The status filter is parsed case-insensitively: status=AVAILABLE (outside PetStatus) returns the available animals.',
    detectedBy: ['LIM-007'],
    hooks: () => ({
      listQuery: (query, raw) => {
        const lower = raw.status?.toLowerCase();
        return lower !== undefined && lower !== raw.status && PET_STATUSES.includes(lower) ? { ...query, status: lower } : query;
      },
    }),
  }),
  defineFault({
    name: 'ind-lim-sql-negative-limit',
    group: 'limits',
    description: 'limit is checked to be an integer only and passed to SQL, where LIMIT -1 (and 0, read as "no limit") returns every row.',
    detectedBy: ['LIM-004'],
    hooks: () => ({
      listQuery: (query, raw) => (raw.limit !== undefined && /^(-\d+|0+)$/.test(raw.limit) ? { ...query, limit: UNBOUNDED } : query),
    }),
  }),
  defineFault({
    name: 'ind-lim-filter-after-page',
    group: 'limits',
    description: 'The page of limit animals is cut first and filtered by status after: a filtered list is short and misses matching animals.',
    detectedBy: ['LIM-006', 'CON-003'],
    hooks: () => {
      // listQuery and listSource run one after the other within one synchronous call of listPets.
      let page: { limit: number; filtered: boolean } | undefined;
      return {
        listQuery: (query) => {
          page = typeof query.limit === 'number' ? { limit: query.limit, filtered: typeof query.status === 'string' } : undefined;
          return query;
        },
        listSource: (pets) => (page?.filtered ? pets.slice(0, page.limit) : pets),
      };
    },
  }),
  defineFault({
    name: 'ind-lim-text-limit-crash',
    group: 'limits',
    description: 'A limit that is not a number reaches the database as NaN and the query fails: 500.',
    detectedBy: ['LIM-004', 'STA-008'],
    hooks: () => ({
      reply: (reply, context) => {
        if (context.operation !== 'listPets' || reply.status !== 400) return reply;
        const limit = new URLSearchParams(context.search).get('limit');
        if (limit === null || !Number.isNaN(Number.parseInt(limit, 10))) return reply;
        return replaceWithError(reply, context, 500, 'internal_error', 'invalid input syntax for type bigint: "NaN"');
      },
    }),
  }),
] as const;
