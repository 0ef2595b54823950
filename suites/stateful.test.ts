import fc from 'fast-check';
import { type ConformanceContext, conformance } from '../src/harness/index.ts';
import type { ApiResponse } from '../src/client/index.ts';
import { ConformanceFailure } from '../src/errors.ts';
import { runStoreModel, type StoreCommand, type StoreUnderTest, storeCommands } from '../src/model/index.ts';

/**
 * CON-002, model-based: random sequences of createPet, getPet (of our pets and of ids never created) and
 * listPets run against the target and a model of what this sequence did. Each run tags its pets with a
 * tag of its own, so the model speaks only of them: sound on a shared store full of other people's pets
 * (only a list shorter than its limit is taken as complete).
 */

/** Run tags are ctx.petName() values; their counter may grow by this many digits during a run. */
const TAG_GROWTH = 5;
/** Each shrink step replays a whole sequence: cap them so a failure on the reference ends in seconds. */
const MAX_SHRINKS = 300;

conformance(
  'CON-002',
  'any sequence of createPet, getPet and listPets agrees with a model of the store',
  async (ctx: ConformanceContext) => {
    const numRuns = ctx.numRuns({ quick: 0, standard: 5, thorough: 60 });
    const maxCommands = ctx.numRuns({ quick: 0, standard: 15, thorough: 30 });
    const left = ctx.budgetLeft();
    if (left !== undefined && left < numRuns * maxCommands) ctx.skip(`needs up to ${numRuns * maxCommands} requests; ${left} left in the budget`, 'budget');
    const categoryIds = ctx.run.categoryIds?.map((id) => BigInt(id));
    const arbitraries = storeCommands(ctx.contract, {
      maxTagLength: ctx.petName(ctx.requirement.id).length + TAG_GROWTH,
      ...(categoryIds && categoryIds.length > 0 ? { categoryIds } : {}),
    });
    const commands = fc.limitShrink(fc.commands(arbitraries, { maxCommands, size: 'max' }), MAX_SHRINKS);
    await ctx.property(
      commands,
      (cmds: Iterable<StoreCommand>) => modelRun(ctx, cmds),
      // The commands that ran, as they ran (names with the run's tag, ids as assigned), and the replay path.
      { numRuns, describe: (cmds) => String(cmds) },
    );
  },
  { tier: 'standard', writes: true },
);

/**
 * One sequence against the target, then the same model over its recorded exchanges as a judgment
 * (`store-model`), which rejudge replays from the log: a failed run edited into a pass is refused at the
 * request the model disagrees with. The live failure and the replay's are the same; a harness error
 * (the budget, a transport failure) is never turned into a finding.
 */
async function modelRun(ctx: ConformanceContext, cmds: Iterable<StoreCommand>): Promise<void> {
  const tag = ctx.petName(ctx.requirement.id);
  const responses: ApiResponse[] = [];
  const keep = (response: ApiResponse) => (responses.push(response), response);
  const store: StoreUnderTest = {
    createPet: async (body) => keep(await ctx.client.createPet(body)),
    getPet: async (id) => keep(await ctx.client.getPet(id)),
    listPets: async (query) => keep(await ctx.client.listPets(query)),
  };
  let failure: unknown;
  try {
    await runStoreModel(cmds, { store, tag, fail: ctx.fail });
  } catch (error) {
    failure = error;
  }
  if (responses.length > 0 && (failure === undefined || failure instanceof ConformanceFailure)) ctx.judge('store-model', responses, { tag });
  if (failure !== undefined) throw failure;
}
