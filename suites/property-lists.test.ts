import { queryArbitrary } from '../src/arbitraries/index.ts';
import { type ConformanceContext, conformance } from '../src/harness/index.ts';
import { bodyExcerpt } from '../src/client/index.ts';
import { showValue } from '../src/text/json.ts';
import { listQueryFamilies } from './support/property-families.ts';
import { affordCases, withFamilies } from './support/property-cases.ts';

/**
 * A property over generated listPets queries, derived from spec/openapi.yaml: any valid query keeps its
 * limit and its status filter (LIM-008). From standard on, it first sends one query of each input family
 * (support/property-families.ts), then generated ones: thorough adds volume, never families. Quick sends
 * generated queries only. A file apart from property.test.ts (SCH-006), so that the embedded run's
 * workers share the generated cases.
 */

conformance(
  'LIM-008',
  'any limit from 1 to 100, with or without status, yields at most limit animals, all matching (property)',
  async (ctx: ConformanceContext) => {
    const families = withFamilies(ctx, listQueryFamilies(ctx.contract));
    const numRuns = affordCases(ctx, { quick: 2, standard: 10, thorough: 500 }, 1, families.length);
    const queries = queryArbitrary(ctx.contract, 'listPets', { always: ['limit'] });
    let listed = 0;
    await ctx.property(
      queries,
      async (query) => {
        const limit = Number(query.limit);
        const status = typeof query.status === 'string' ? query.status : undefined;
        const what = `listPets limit=${limit}${status === undefined ? '' : ` status=${status}`}`;
        const response = await ctx.client.listPets({ limit, status });
        ctx.expectStatus(response, 200, what);
        ctx.judge('list-length', response, { max: limit }, what);
        if (!Array.isArray(response.body)) return ctx.fail(`${what}: a JSON array`, bodyExcerpt(response, 200) || 'an empty body', response);
        listed = Math.max(listed, response.body.length);
        if (status !== undefined) ctx.judge('list-only-status', response, { status }, what);
      },
      { numRuns, families, describe: (query) => `listPets(${showValue(query)})` },
    );
    // Elsewhere the suite's own pets fill the store (and the example test of LIM-008 makes sure of eight);
    // a read-only run on an empty store lists nothing, and "at most limit" over nothing proves nothing.
    if (ctx.run.readOnly) ctx.observable(listed > 0, 'every list was empty: the store is empty and --read-only forbids creating');
  },
  { tier: 'quick' },
);
