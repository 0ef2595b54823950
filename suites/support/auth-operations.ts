import type { ApiResponse, RequestOptions } from '../../src/client/index.ts';
import type { ConformanceContext, PetRecord } from '../../src/harness/index.ts';

/**
 * One pet for a whole test file, fetched lazily by the first test that needs it (its exchanges are
 * recorded there). Created inside a describe block, so nothing is shared between files or runs.
 */
export interface SharedPet {
  /** Keeps a pet a test created anyway, so no request is spent on another one. */
  offer(pet: PetRecord): void;
  get(ctx: ConformanceContext): Promise<PetRecord>;
}

export function createSharedPet(): SharedPet {
  let pending: Promise<PetRecord> | undefined;
  return {
    offer(pet) {
      pending ??= Promise.resolve(pet);
    },
    get(ctx) {
      pending ??= ctx.existingPet();
      return pending;
    },
  };
}

/** An operation of the interface, called in the way auth tests need. */
export interface AuthOperation {
  name: 'listPets' | 'createPet' | 'getPet';
  /** createPet stores a pet when it (wrongly) lets the request through: skipped in read-only mode. */
  writes: boolean;
  call(ctx: ConformanceContext, options: RequestOptions): Promise<ApiResponse>;
}

/**
 * The three operations, each with a request nothing but authentication can refuse: listPets with a valid
 * limit, createPet with a valid NewPet, getPet of a pet that exists.
 */
export function authOperations(pet: SharedPet): readonly AuthOperation[] {
  return [
    { name: 'listPets', writes: false, call: (ctx, options) => ctx.client.listPets({ limit: 1 }, options) },
    {
      name: 'createPet',
      writes: true,
      call: (ctx, options) => ctx.client.createPet({ name: ctx.petName(), categoryId: ctx.categoryId() }, options),
    },
    { name: 'getPet', writes: false, call: async (ctx, options) => ctx.client.getPet((await pet.get(ctx)).id, options) },
  ];
}

/** An id no pet is likely to have: random, near the top of int64, where sequential ids never reach. */
export function unlikelyPetId(ctx: ConformanceContext): bigint {
  return 2n ** 62n + BigInt(Math.floor(ctx.random() * 2 ** 52));
}
