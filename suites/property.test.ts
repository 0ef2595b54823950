import fc from 'fast-check';
import { arbitraryFromSchema, DEFAULT_NAME_LIMIT, NEW_PET_REF, type SchemaValue } from '../src/arbitraries/index.ts';
import { type ConformanceContext, conformance, describePet, toPetRecord } from '../src/harness/index.ts';
import { bodyExcerpt } from '../src/client/index.ts';
import { showValue } from '../src/text/json.ts';
import { differences } from '../src/model/index.ts';
import { validNewPetFamilies } from './support/property-families.ts';
import { affordCases, newPetOptions, withFamilies } from './support/property-cases.ts';

/**
 * A property over generated requests, derived from spec/openapi.yaml: any valid NewPet is accepted and
 * read back (SCH-006). Any valid listPets query is property-lists.test.ts's, the invalid bodies
 * property-invalid.test.ts's: files apart, so that the embedded run's workers share the generated cases.
 * From standard on, the property first sends one case of each input family (support/property-families.ts,
 * derived from the spec), then generated cases: thorough adds volume, never families. Quick sends
 * generated cases only (its budget is 75 requests).
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
