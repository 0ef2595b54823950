import { invalidNewPet, type InvalidCase, type InvalidationKind } from '../src/arbitraries/index.ts';
import { type ConformanceContext, conformance } from '../src/harness/index.ts';
import { INVALID_PROPERTY_KINDS, invalidFamilies } from './support/property-families.ts';
import { type Runs, affordCases, newPetOptions, withFamilies } from './support/property-cases.ts';

/**
 * Properties over generated invalid bodies, derived from spec/openapi.yaml: any named-invalid NewPet is
 * refused (STA-005/006/007, INT-002). A file apart from property.test.ts so that the two halves of the
 * generated cases run on both workers of an embedded run; each property first sends one case of each
 * input family (support/property-families.ts), then generated cases (thorough adds volume, never families).
 */

interface InvalidProperty {
  id: keyof typeof INVALID_PROPERTY_KINDS;
  title: string;
  /** Generated cases after one of each family (standard has them all: 3, 19, 5 and 2 families). */
  runs: Runs;
}

const INVALID_PROPERTIES: readonly InvalidProperty[] = [
  { id: 'STA-005', title: 'any NewPet missing a required field is refused with 400 (property)', runs: { quick: 0, standard: 3, thorough: 150 } },
  {
    id: 'STA-006',
    title: 'any NewPet with a field of the wrong type or outside its enum is refused with 400 (property)',
    runs: { quick: 0, standard: 4, thorough: 600 },
  },
  { id: 'STA-007', title: 'any body that is not a JSON object is refused with 400 (property)', runs: { quick: 0, standard: 1, thorough: 150 } },
  { id: 'INT-002', title: 'any categoryId beyond int64 is refused with 400 (property)', runs: { quick: 0, standard: 1, thorough: 100 } },
];

for (const { id, title, runs } of INVALID_PROPERTIES) {
  const kind: InvalidationKind = INVALID_PROPERTY_KINDS[id] as InvalidationKind;
  conformance(
    id,
    title,
    async (ctx: ConformanceContext) => {
      const families = withFamilies(ctx, invalidFamilies(ctx.contract, kind, newPetOptions(ctx)));
      const numRuns = affordCases(ctx, runs, 1, families.length);
      const cases = invalidNewPet(ctx.contract, { ...newPetOptions(ctx), kinds: [kind] });
      await ctx.property(
        cases,
        async (c: InvalidCase) => {
          const response = await ctx.client.createPet(c.body, c.rawBody === undefined ? undefined : { rawBody: c.rawBody });
          ctx.judge('status-in', response, { allowed: [400] }, `createPet refuses ${c.name} (${c.label})`);
        },
        { numRuns, families, describe: (c) => c.label },
      );
    },
    { writes: true },
  );
}
