import { isProblem } from '../list-query.ts';
import { defineFault } from './hooks.ts';
import { replaceWithError } from './reply-edits.ts';
import { PET_STATUSES } from './field-and-rate-edits.ts';
import type { OutsideFault } from './outside-fault.ts';

/** listPets that miscounts, ignores its parameters or drops its filter. */
export const LIMIT_FAULTS = [
  defineFault({
    name: 'limit-off-by-one',
    group: 'limits',
    description: 'listPets returns limit + 1 pets (21 by default).',
    detectedBy: ['LIM-001', 'LIM-002', 'LIM-003', 'LIM-008'],
    hooks: () => ({ listQuery: (query) => (isProblem(query.limit) ? query : { ...query, limit: query.limit + 1 }) }),
  }),
  defineFault({
    name: 'limit-max-50',
    group: 'limits',
    description: 'listPets never returns more than 50 pets, even with limit=100 and more stored.',
    detectedBy: ['LIM-002'],
    hooks: () => ({ listQuery: (query) => (isProblem(query.limit) ? query : { ...query, limit: Math.min(query.limit, 50) }) }),
  }),
  defineFault({
    name: 'default-limit-10',
    group: 'limits',
    description: 'Without limit, listPets returns 10 pets instead of 20.',
    detectedBy: ['LIM-003'],
    hooks: () => ({ listQuery: (query, raw) => (raw.limit === undefined ? { ...query, limit: 10 } : query) }),
  }),
  defineFault({
    name: 'limit-required',
    group: 'limits',
    description: 'listPets without limit answers 400 ("limit is required") instead of using the default of 20.',
    detectedBy: ['STA-002', 'LIM-003'],
    hooks: () => ({
      listQuery: (query, raw) => (raw.limit === undefined ? { ...query, limit: { problem: 'limit is required' } } : query),
    }),
  }),
  defineFault({
    name: 'limit-ignored',
    group: 'limits',
    description: 'listPets ignores limit and returns every pet (valid limits only; invalid ones still get 400).',
    detectedBy: ['LIM-001', 'LIM-002', 'LIM-003', 'LIM-008'],
    hooks: () => ({ listQuery: (query) => (isProblem(query.limit) ? query : { ...query, limit: Number.MAX_SAFE_INTEGER }) }),
  }),
  defineFault({
    name: 'status-filter-ignored',
    group: 'limits',
    description: 'listPets ignores a valid status filter and lists pets of every status.',
    detectedBy: ['LIM-005', 'LIM-008'],
    hooks: () => ({ listQuery: (query) => (isProblem(query.status) ? query : { ...query, status: undefined }) }),
  }),
  defineFault({
    name: 'status-filter-folds-case',
    group: 'limits',
    description: 'The status filter is compared without regard to letter case: status=Sold or status=AVAILABLE (not PetStatus values) list those pets.',
    detectedBy: ['LIM-007'],
    hooks: () => ({
      listQuery: (query, raw) => {
        const folded = ['available', 'pending', 'sold'].find((status) => status.localeCompare(raw.status ?? '', 'en', { sensitivity: 'base' }) === 0);
        return folded !== undefined && isProblem(query.status) ? { ...query, status: folded } : query;
      },
    }),
  }),
  defineFault({
    name: 'limit-above-100-honoured',
    group: 'limits',
    description: 'listPets takes a limit above 100 as given (limit=101 lists 101 pets) instead of refusing or clamping it.',
    detectedBy: ['LIM-004'],
    hooks: () => ({
      listQuery: (query, raw) => {
        const asked = Number(raw.limit);
        return isProblem(query.limit) && Number.isInteger(asked) && asked > 100 ? { ...query, limit: asked } : query;
      },
    }),
  }),
  defineFault({
    name: 'limit-zero-honoured',
    group: 'limits',
    description: 'limit=0 is taken as given: 200 with an empty list, whatever the store holds (other invalid limits still get 400).',
    detectedBy: ['LIM-004'],
    hooks: () => ({ listQuery: (query, raw) => (isProblem(query.limit) && raw.limit === '0' ? { ...query, limit: 0 } : query) }),
  }),
  defineFault({
    name: 'status-filter-needs-limit',
    group: 'limits',
    description: 'listPets applies the status filter only when limit is given too; without limit it lists every status.',
    detectedBy: ['LIM-005'],
    hooks: () => ({ listQuery: (query, raw) => (raw.limit === undefined && !isProblem(query.status) ? { ...query, status: undefined } : query) }),
  }),
  defineFault({
    name: 'unfiltered-list-drops-status',
    group: 'limits',
    description: 'listPets without a status filter lists only the pets stored without a status: every pet added with one is left out.',
    detectedBy: ['LIM-006'],
    hooks: () => {
      // The reference reads the query and then the source within one request, synchronously: the query's
      // filter, kept here, is the one of the request whose source is read next.
      let unfiltered = false;
      return {
        listQuery: (query) => {
          unfiltered = query.status === undefined;
          return query;
        },
        listSource: (pets) => (unfiltered ? pets.filter((pet) => pet.status === undefined) : pets),
      };
    },
  }),
  defineFault({
    name: 'unknown-status-returns-all',
    group: 'limits',
    description: 'A status filter outside PetStatus is dropped: the list holds pets of every status.',
    detectedBy: ['LIM-007'],
    hooks: () => ({ listQuery: (query) => (isProblem(query.status) ? { ...query, status: undefined } : query) }),
  }),
] as const;

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

/** Defaults, boundaries and pagination of listPets, and its filter (outside-fault-list.md 1–5, 16). */

const ALL = Number.MAX_SAFE_INTEGER;
const DIGITS = /^\d+$/;

export const OUTSIDE_LIST_FAULTS = [
  {
    name: 'out-default-limit-all',
    area: 'defaults',
    description: 'GET /pets without limit returns every animal (no default page size)',
    hooks: { listQuery: (query, raw) => (raw.limit === undefined ? { ...query, limit: ALL } : query) },
  },
  {
    name: 'out-limit-100-refused',
    area: 'boundaries',
    description: 'limit=100 is answered 400 (the upper bound checked as exclusive)',
    hooks: {
      listQuery: (query) => (query.limit === 100 ? { ...query, limit: { problem: 'limit must be an integer from 1 to 100, got "100"' } } : query),
    },
  },
  {
    name: 'out-limit-uncapped',
    area: 'boundaries',
    description: 'a limit above 100 is honoured',
    hooks: {
      listQuery: (query, raw) => {
        if (raw.limit === undefined || !DIGITS.test(raw.limit) || raw.repeated.includes('limit')) return query;
        const asked = Number(raw.limit);
        return asked > 100 ? { ...query, limit: asked } : query;
      },
    },
  },
  {
    name: 'out-list-envelope',
    area: 'pagination',
    description: 'listPets wraps its page in {"data":[…],"count":n}',
    hooks: {
      reply: (reply, context) => {
        if (context.operation !== 'listPets' || reply.status !== 200 || reply.body === undefined) return reply;
        const count = (JSON.parse(reply.body) as unknown[]).length;
        return { ...reply, body: `{"data":${reply.body},"count":${count}}` };
      },
    },
  },
  {
    name: 'out-status-filter-ignored',
    area: 'enumerations',
    description: 'the status filter is validated but never applied',
    hooks: { listQuery: (query) => (typeof query.status === 'string' ? { ...query, status: undefined } : query) },
  },
  {
    name: 'out-list-text-html',
    area: 'content types',
    description: "listPets' 200 is sent as text/html; charset=utf-8",
    hooks: {
      reply: (reply, context) => (context.operation === 'listPets' && reply.status === 200 ? { ...reply, contentType: 'text/html; charset=utf-8' } : reply),
    },
  },
] as const satisfies readonly OutsideFault[];
