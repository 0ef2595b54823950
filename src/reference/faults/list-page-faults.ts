import type { OutsideFault } from './outside-fault.ts';

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
