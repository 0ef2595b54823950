import fc from 'fast-check';
import { arbitraryFromSchema, DEFAULT_NAME_LIMIT, NEW_PET_REF, type SchemaValue } from '../arbitraries/index.ts';
import type { Contract } from '../contract/index.ts';
import { CreatePetCommand } from './create-pet-command.ts';
import { GetPetCommand } from './get-pet-command.ts';
import { GetUnknownPetCommand } from './get-unknown-pet-command.ts';
import { ListPetsCommand } from './list-pets-command.ts';
import type { StoreReal } from './pet-store.ts';
import type { StoreModel } from './store-model.ts';

export interface StoreCommandsOptions {
  /** The longest run tag the model will carry: names are `${tag} ${generated}` within 64 code units. */
  maxTagLength: number;
  /** The category ids the target accepts (--category-ids). */
  categoryIds?: readonly bigint[];
}

export type StoreCommand = fc.AsyncCommand<StoreModel, StoreReal>;

/** The command arbitraries for fc.commands: create, get, get an unknown id, list; all from the spec. */
export function storeCommands(contract: Contract, options: StoreCommandsOptions): Array<fc.Arbitrary<StoreCommand>> {
  // The generated part of the name only: the run's tag is put in front when the command runs.
  const newPet = arbitraryFromSchema(contract, NEW_PET_REF, {
    nameTag: '',
    maxNameLength: DEFAULT_NAME_LIMIT - options.maxTagLength,
    ...(options.categoryIds ? { categoryIds: options.categoryIds } : {}),
  }) as fc.Arbitrary<Record<string, SchemaValue>>;
  const petId = arbitraryFromSchema(contract, { type: 'integer', format: 'int64' }) as fc.Arbitrary<bigint>;
  const status = fc.option(arbitraryFromSchema(contract, '#/components/schemas/PetStatus') as fc.Arbitrary<string>, { nil: undefined });
  return [
    newPet.map((fields): StoreCommand => new CreatePetCommand(fields)),
    fc.nat(1_000).map((pick): StoreCommand => new GetPetCommand(pick)),
    // Not shrunk: which unknown id is asked for does not matter, and shrinking it toward the ids the
    // run created (which check() must keep away from) only crawls.
    fc.noShrink(petId).map((id): StoreCommand => new GetUnknownPetCommand(id)),
    status.map((s): StoreCommand => new ListPetsCommand(s)),
  ];
}
