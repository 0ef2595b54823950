import type { ApiResponse } from '../src/client/index.ts';
import { type ConformanceContext, conformance, toPetRecords } from '../src/harness/index.ts';
import { INT64_MAX, INT64_MIN, toBigInt } from '../src/text/json.ts';
import { TWO_POW_53_PLUS_1, TWO_POW_63, brief, expectRefused, forProfile } from './support/examples-bodies.ts';

/**
 * id and categoryId are int64. Bodies are parsed losslessly (src/text/json.ts) and compared as bigint, so a
 * server that passes values through a double (2^53+1 → 2^53) is caught by its digits.
 */

/**
 * Creates a pet with `categoryId` and reads it back; fails unless both answers hold exactly that value.
 * With `mayRefuse`, a 400 ends the round trip without a verdict: a target that accepts only some
 * categories (--category-ids) may refuse the others.
 */
async function expectCategoryRoundTrip(ctx: ConformanceContext, categoryId: bigint, mayRefuse = false, written?: string): Promise<void> {
  // `written`: the categoryId as it goes on the wire, when it is another form of the same integer (1e3).
  const created =
    written === undefined
      ? await ctx.client.createPet({ name: ctx.petName(), categoryId })
      : await ctx.client.createPet(undefined, { rawBody: `{"name":${JSON.stringify(ctx.petName())},"categoryId":${written}}` });
  if (mayRefuse && created.status === 400) return;
  const sent = written === undefined ? `${categoryId}` : `${written} (${categoryId})`;
  ctx.judge(
    'status-in',
    created,
    { allowed: [201] },
    `createPet of categoryId ${sent}${ctx.run.categoryIds ? '' : ' (if the target accepts only some categories, pass --category-ids)'}`,
  );
  // A body with no categoryId or id at all is SCH-002's finding; a value that differs is this one's.
  const field = fieldOf(created.body, 'categoryId');
  if (field === undefined) ctx.skip(`precondition failed: createPet's 201 body has no categoryId (see SCH-002): ${brief(created.text)}`);
  ctx.judge('pet-is', created, { categoryId: String(categoryId) }, `createPet of categoryId ${sent}, returned exactly`);
  const id = toBigInt(fieldOf(created.body, 'id'));
  if (id === undefined) ctx.skip(`precondition failed: createPet's 201 body has no integer id (see SCH-002, INT-003): ${brief(created.text)}`);
  const fetched = await ctx.client.getPet(id);
  ctx.expectStatus(fetched, 200, `getPet ${id} (created with categoryId ${categoryId})`);
  // idFrom ties the read-back to its create: the categoryId compared is the one that create wrote.
  ctx.judge('pet-is', fetched, { idFrom: created.exchange.seq, categoryId: String(categoryId) }, `getPet ${id}, created with categoryId ${sent}`);
}

/** Integers written with an exponent or a fraction of zeros (INT-001 sends none at quick: its budget goes to the edges). */
const INTEGER_FORMS: readonly { written: string; value: bigint }[] = [
  { written: '9007199254740993.0', value: TWO_POW_53_PLUS_1 },
  { written: '1e3', value: 1000n },
  { written: '92233720368547758.07e2', value: INT64_MAX },
  { written: '-9.223372036854775808E18', value: INT64_MIN },
  { written: '4.20e1', value: 42n },
  { written: '0.042e3', value: 42n },
  { written: '0.0', value: 0n },
  { written: '101.00', value: 101n },
  { written: '100.000e-2', value: 1n },
];

conformance(
  'INT-005',
  'an integer categoryId written with an exponent or a zero fraction is accepted with 201',
  async (ctx: ConformanceContext) => {
    // A target that accepts only some categories refuses most of these values for that reason alone.
    if (ctx.run.categoryIds) ctx.skip('precondition failed: the target accepts only the categories given with --category-ids', 'precondition');
    // What is stored is INT-001's to judge; this one asks only that the form is not refused. Quick sends
    // the first form only: one request.
    for (const form of forProfile(ctx, INTEGER_FORMS, 1)) {
      const created = await ctx.client.createPet(undefined, { rawBody: `{"name":${JSON.stringify(ctx.petName())},"categoryId":${form.written}}` });
      ctx.judge('status-in', created, { allowed: [201] }, `createPet of categoryId ${form.written} (the integer ${form.value})`);
    }
  },
  { tier: 'quick', writes: true },
);

function fieldOf(body: unknown, field: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[field] : undefined;
}

conformance(
  'INT-001',
  'categoryId round-trips exactly at the edges of int64 (0, ±(2^53+1), 2^63-1, -2^63), written as an exponent or a zero fraction too, and for the ids given with --category-ids',
  async (ctx: ConformanceContext) => {
    // 2^53+1 first: the first integer a double cannot hold, so the quick profile's one case is the telling one.
    const edges = forProfile(ctx, [TWO_POW_53_PLUS_1, -TWO_POW_53_PLUS_1, INT64_MAX, INT64_MIN, 0n], 1);
    const given = ctx.run.categoryIds;
    // The edges are sent even when the target restricts categories: refusing them with 400 is its right,
    // answering them with other digits is not. The given ids then prove the round trip for what it accepts.
    for (const value of edges) await expectCategoryRoundTrip(ctx, value, given !== undefined);
    // The same integers written otherwise (an exponent, a zero fraction): JSON has one number type, and a
    // server may refuse these forms (400) or read them as the integer they are; storing another number is
    // data loss. 2^53+1 with a fraction is the telling case: read through a double, it turns into 2^53.
    if (!given) for (const form of forProfile(ctx, INTEGER_FORMS, 0)) await expectCategoryRoundTrip(ctx, form.value, true, form.written);
    if (!given) return;
    // A long list of categories would spend the budget on one fact: four of them show it outside thorough.
    const sample = ctx.run.profile === 'thorough' ? given : given.slice(0, 4);
    for (const id of forProfile(ctx, sample, 1)) await expectCategoryRoundTrip(ctx, BigInt(id));
  },
  { tier: 'quick', writes: true },
);

conformance(
  'INT-002',
  'a categoryId outside int64 (2^63, -2^63-1) is refused with 400',
  async (ctx: ConformanceContext) => {
    // Written as JSON text: the digits must reach the server as they are, not through a double.
    const name = JSON.stringify(ctx.petName());
    const values = [TWO_POW_63, INT64_MIN - 1n];
    for (const value of forProfile(ctx, values, 1)) {
      const response = await ctx.client.createPet(undefined, { rawBody: `{"name":${name},"categoryId":${value}}` });
      expectRefused(ctx, response, { operation: 'createPet', input: `categoryId ${value} (outside int64)` });
    }
  },
  { tier: 'quick', writes: true },
);

conformance(
  'INT-003',
  'assigned ids are distinct integers in int64 range',
  async (ctx: ConformanceContext) => {
    const created: ApiResponse[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await ctx.client.createPet({ name: ctx.petName(), categoryId: ctx.categoryId(i) });
      // A 200 assigns an id too (the wrong status is STA-001's finding): its ids are judged the same.
      if (response.status !== 201 && response.status !== 200) ctx.skip(`precondition failed: createPet answered ${response.status}, not 201 (see STA-001)`);
      // An integer id within int64, read from the logged body.
      ctx.judge('pet-id-int64', response, {});
      // Every id so far, judged together: the log holds each body, so rejudge finds a duplicate too.
      created.push(response);
      ctx.judge('pet-ids-distinct', [...created], {});
    }
  },
  { writes: true },
);

conformance('INT-004', 'getPet finds an animal by exactly the id it was assigned, and never by the ids next to it', async (ctx: ConformanceContext) => {
  // Two pets get neighbouring ids, so one of them is odd: above 2^53 an odd id is exactly what a
  // double cannot hold. In read-only mode one listed pet is read. Ids go into the path digit for digit.
  const pets = ctx.run.readOnly ? [await ctx.existingPet()] : [await ctx.setupPet(), await ctx.setupPet()];
  for (const pet of pets) {
    const response = await ctx.client.getPet(pet.id);
    ctx.expectStatus(response, 200, `getPet ${pet.id}`);
    ctx.judge('pet-is', response, { idFrom: pet.from, name: pet.name }, `getPet ${pet.id}`);
  }
  // The ids on either side of each, and of the least and the greatest id listed (the ends of the ids in
  // use, where a server's ids may pass -2^53 or 2^53): another animal or none, never the one next door.
  // A store keyed by doubles past ±2^53 (where neighbouring ids round to one key) answers id ± 1 with it.
  const listed = toPetRecords((await ctx.client.listPets({ limit: 100 })).body);
  const ends = listed.length ? [listed.reduce((a, b) => (b.id < a.id ? b : a)), listed.reduce((a, b) => (b.id > a.id ? b : a))] : [];
  for (const pet of [...pets, ...ends.filter((end, i) => !pets.some((p) => p.id === end.id) && (i === 0 || end.id !== ends[0]?.id))]) {
    for (const id of [pet.id - 1n, pet.id + 1n].filter((n) => n >= INT64_MIN && n <= INT64_MAX)) {
      const response = await ctx.client.getPet(id);
      ctx.expectStatus(response, [200, 404], `getPet ${id}, next to ${pet.id}`);
      // The id asked for is read from the logged request's path.
      ctx.judge('pet-is-requested', response, {});
    }
  }
});

conformance(
  'INT-006',
  'getPet of petId -2^63 and 2^63-1, the ends of int64, answers 200 or 404, never 400',
  async (ctx: ConformanceContext) => {
    // Both are int64 values: a 400 says they are not, the usual sign of bounds checked as exclusive or of
    // a validator on doubles. Quick sends 2^63-1, the end a double cannot hold.
    for (const id of forProfile(ctx, [INT64_MAX, INT64_MIN], 1)) {
      const response = await ctx.client.getPet(id);
      ctx.expectStatus(response, [200, 404], `getPet ${id} (${id < 0n ? 'the least' : 'the greatest'} int64)`);
    }
  },
  { tier: 'quick' },
);
