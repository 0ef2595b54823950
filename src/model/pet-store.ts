/** What the model needs of an answer; the client's ApiResponse is one. */
export interface StoreAnswer {
  readonly status: number;
  /** The parsed JSON body (int64 beyond 2^53 as bigint), undefined when it did not parse. */
  readonly body: unknown;
  readonly text: string;
}

/**
 * The store under test as the commands see it. The client (TargetClient) is one; the model's own tests
 * use an in-memory fake with injected faults.
 */
export interface StoreUnderTest {
  createPet(body: unknown): Promise<StoreAnswer>;
  getPet(petId: bigint): Promise<StoreAnswer>;
  listPets(query: { limit: number; status?: string }): Promise<StoreAnswer>;
}

/** The "real" side of fc.asyncModelRun: the store, and how a disagreement is reported. */
export interface StoreReal {
  readonly store: StoreUnderTest;
  /** Throws the failure of the test's requirement ("expected …", "got …"). */
  fail(expected: string, actual: string): never;
}
