import fc from 'fast-check';
import { arbitraryFromSchema, DEFAULT_NAME_LIMIT, NEW_PET_REF, queryArbitrary, type SchemaValue } from '../src/arbitraries/index.ts';
import { type ConformanceContext, conformance, describePet, toPetRecord } from '../src/harness/index.ts';
import { bodyExcerpt } from '../src/client/index.ts';
import { showValue } from '../src/text/json.ts';
import { differences } from '../src/model/index.ts';
import { listQueryFamilies, validNewPetFamilies } from './support/property-families.ts';
import { affordCases, newPetOptions, withFamilies } from './support/property-cases.ts';

/**
 * Properties over generated requests, derived from spec/openapi.yaml: any valid NewPet is accepted and
 * read back (SCH-006), any valid listPets query keeps its limit and filter (LIM-008); the invalid bodies
 * are property-invalid.test.ts's. From standard on, every property first sends one case of
 * each input family (support/property-families.ts, derived from the spec), then generated cases:
 * thorough adds volume, never families. Quick sends generated cases only (its budget is 75 requests).
 */

/** A name longer than this may be refused: a server may bound names (bounds are not shown). */
const NAME_LIMIT = DEFAULT_NAME_LIMIT;

conformance(
  'SCH-006',
  'any valid NewPet is accepted with 201, echoed exactly, and read back alike (property)',
  async (ctx: ConformanceContext) => {
    const options = newPetOptions(ctx);
    const families = withFamilies(ctx, validNewPetFamilies(ctx.contract, options));
    const numRuns = affordCases(ctx, { quick: 2, standard: 10, thorough: 600 }, 2, families.length);
    // One case in five has a name beyond 64 code units: refused with 400 or echoed exactly, never cut.
    const bodies = fc.oneof(
      { weight: 4, arbitrary: arbitraryFromSchema(ctx.contract, NEW_PET_REF, options) },
      { weight: 1, arbitrary: arbitraryFromSchema(ctx.contract, NEW_PET_REF, { ...options, longNames: true }) },
    ) as fc.Arbitrary<Record<string, SchemaValue>>;
    await ctx.property(
      bodies,
      async (body) => {
        const shown = `createPet(${showValue(body)})`;
        const response = await ctx.client.createPet(body);
        const name = String(body.name);
        // A server may bound names (length bounds are not shown), but not below 1..64.
        if (response.status === 400 && (name.length === 0 || name.length > NAME_LIMIT)) return;
        ctx.expectStatus(response, 201, shown);
        const sentStatus = typeof body.status === 'string' ? body.status : undefined;
        // As rules first, so that rejudge evaluates them on the log; the reading below only names what they imply.
        ctx.judge('pet-echoes-sent', response, { fields: sentStatus === undefined ? ['name', 'categoryId'] : ['name', 'categoryId', 'status'] }, shown);
        const pet = toPetRecord(response.body);
        if (!pet) return ctx.fail(`${shown}: 201 with a Pet`, `201 with ${bodyExcerpt(response, 200)}`, response);
        const sent = { id: pet.id, name, categoryId: body.categoryId as bigint, status: sentStatus ?? pet.status };
        const echo = differences(sent, pet);
        if (echo) ctx.fail(`${shown}: 201 echoing name, categoryId and status exactly`, `201 with ${echo}`, response);
        const read = await ctx.client.getPet(pet.id);
        ctx.expectStatus(read, 200, `getPet ${pet.id}, just created by ${shown}`);
        ctx.judge('pet-as-answered', read, { idFrom: response.exchange.seq }, `getPet ${pet.id}, just created by ${shown}`);
        const readPet = toPetRecord(read.body);
        const diff = readPet ? differences(pet, readPet) : `${bodyExcerpt(read, 200)}`;
        if (diff) ctx.fail(`getPet ${pet.id} returns ${describePet(pet)}, as createPet did`, `getPet returned ${diff}`, [response, read]);
      },
      { numRuns, families, describe: (body) => `createPet(${showValue(body)})` },
    );
  },
  { tier: 'quick', writes: true },
);

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
