import type { ApiResponse } from '../../src/client/index.ts';
import type { ConformanceContext, PetRecord, SourcedPet } from '../../src/harness/index.ts';
import { toPetRecords } from '../../src/harness/index.ts';
import { brief } from './examples-bodies.ts';

/** The largest page the interface allows: a list shorter than this is the whole (filtered) store. */
export const MAX_LIMIT = 100;

/** PetStatus, the statuses likelier to be rare on real stores first. */
const STATUSES_RAREST_FIRST = ['pending', 'sold', 'available'] as const;

/** listPets' 200 with a JSON array, as this test's own assertion; returns the raw items. */
export function expectList(ctx: ConformanceContext, response: ApiResponse, what: string): unknown[] {
  ctx.expectStatus(response, 200, what);
  const body = response.body;
  if (!Array.isArray(body)) return ctx.fail(`${what}: a JSON array`, `${what}: ${brief(response.text) || 'an empty body'}`, response);
  return body;
}

/**
 * A list this test needs but does not judge: when the target cannot give one, the test is skipped
 * (STA-002 and SCH-001 report the broken list), so a single fault is not blamed on every requirement.
 */
export async function listForSetup(ctx: ConformanceContext, query: Record<string, string | number>): Promise<PetRecord[]> {
  return toPetRecords((await listForSetupResponse(ctx, query)).body);
}

async function listForSetupResponse(ctx: ConformanceContext, query: Record<string, string | number>): Promise<ApiResponse> {
  const response = await ctx.client.listPets(query);
  if (response.status !== 200 || !Array.isArray(response.body)) {
    ctx.skip(`precondition failed: listPets answered ${response.status}, not 200 with an array (see STA-002, SCH-001)`);
  }
  return response;
}

/** How many items of a list are the given pet (ids compared as bigint, exactly). */
export function occurrences(items: readonly PetRecord[], pet: PetRecord): number {
  return items.filter((item) => item.id === pet.id).length;
}

/**
 * Makes the store hold at least `count` pets when the run may write; returns how many it provably
 * holds. In read-only mode nothing is created. After creating, a count up to 100 is listed again, so a
 * claim built on it rests on what the server shows, not on what it acknowledged; beyond 100 (one page
 * is all a client can count) the acknowledged 201s are trusted.
 */
export async function ensureStoreHolds(ctx: ConformanceContext, count: number): Promise<number> {
  return (await countStore(ctx, count)).stored;
}

/**
 * As ensureStoreHolds, and the list of limit=100 the count was read from (its exchange number), when it
 * was read from one: a judgment then names that list (`countFrom`) instead of stating the count.
 */
export async function countStore(ctx: ConformanceContext, count: number): Promise<{ stored: number; countFrom?: number }> {
  const first = await listForSetupResponse(ctx, { limit: MAX_LIMIT });
  const listed = toPetRecords(first.body).length;
  if (listed >= count || ctx.run.readOnly) return { stored: listed, countFrom: first.exchange.seq };
  const missing = count - listed;
  const left = ctx.budgetLeft();
  if (left !== undefined && left < missing + 2) ctx.skip(`the store holds ${listed} pets; ${missing} more would overrun the request budget`, 'budget');
  for (let i = 0; i < missing; i += 1) await ctx.setupPet({ name: ctx.petName(`${ctx.requirement.id} fill`) });
  if (count > MAX_LIMIT) return { stored: count };
  const again = await listForSetupResponse(ctx, { limit: MAX_LIMIT });
  return { stored: toPetRecords(again.body).length, countFrom: again.exchange.seq };
}

export interface ShortList {
  pet: SourcedPet;
  items: PetRecord[];
  /** The list is shorter than its limit, so it is provably the whole filtered store. */
  complete: boolean;
  /** The listPets answer the items came from: the evidence of a check on them. */
  response: ApiResponse;
}

/**
 * Creates a pet and lists its status with limit=100. On a shared store one status may already fill a
 * page; then the next status is tried, so completeness is provable wherever some status is not full.
 * Statuses likelier to be rare on real stores come first.
 */
export async function createAndListByStatus(ctx: ConformanceContext, what: string): Promise<ShortList> {
  let last: ShortList | undefined;
  for (const status of STATUSES_RAREST_FIRST) {
    // The same list asked for before the create too: a server that serves a list again from a cache of its
    // query (a page kept per URL) then answers the second without the pet it has just stored.
    await ctx.client.listPets({ status, limit: MAX_LIMIT });
    const pet = await ctx.setupPet({ name: ctx.petName(), categoryId: ctx.categoryId(), status });
    const response = await ctx.client.listPets({ status, limit: MAX_LIMIT });
    const items = toPetRecords(expectList(ctx, response, `${what} (status=${status}, limit=${MAX_LIMIT})`));
    last = { pet, items, complete: items.length < MAX_LIMIT, response };
    if (last.complete) return last;
  }
  return last!;
}

/**
 * Every pet the run has added (in any file, createPet answered 201) is in each list that is provably
 * complete: for each status some added pet has, a list filtered by it, and for pets stored without a
 * status the unfiltered list. A list of 100 (which may be a page of more) proves nothing and is passed
 * over. The ledger is read before the lists are asked for, so each pet in it was stored before them.
 */
export async function expectAddedPetsListed(ctx: ConformanceContext): Promise<void> {
  const added = ctx.addedPets();
  const groups = [
    ...STATUSES_RAREST_FIRST.map((status) => ({ status, pets: added.filter((p) => p.status === status), what: `${status} animals` })),
    { status: undefined, pets: added.filter((p) => p.status === undefined), what: 'animals (unfiltered)' },
  ];
  for (const { status, pets, what } of groups) {
    if (pets.length === 0) continue;
    const response = await ctx.client.listPets({ status, limit: MAX_LIMIT });
    const items = toPetRecords(expectList(ctx, response, `listPets (${status ? `status=${status}, ` : ''}limit=${MAX_LIMIT})`));
    if (items.length >= MAX_LIMIT) continue;
    // A rule, so re-judging decides it again from the log: the pets are the run's creates, in any file.
    ctx.judge('added-pets-listed', response, {}, `the complete list of ${items.length} ${what}`);
  }
}
