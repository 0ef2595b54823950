import { isProblem } from '../list-query.ts';
import { defineFault } from './hooks.ts';

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
