import fc from 'fast-check';
import type { StoreUnderTest } from './pet-store.ts';
import type { StoreCommand } from './store-commands.ts';
import { createStoreModel } from './store-model.ts';

export interface RunStoreModelOptions {
  store: StoreUnderTest;
  /** Unique to this run (e.g. ctx.petName()): the run's pets are the ones named `${tag} …`. */
  tag: string;
  fail(expected: string, actual: string): never;
}

/** Runs one command sequence against the store from an empty model. */
export function runStoreModel(commands: Iterable<StoreCommand>, options: RunStoreModelOptions): Promise<void> {
  const { store, tag, fail } = options;
  return fc.asyncModelRun(() => ({ model: createStoreModel(tag), real: { store, fail } }), commands);
}
