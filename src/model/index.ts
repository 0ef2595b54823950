export { CreatePetCommand } from './create-pet-command.ts';
export { GetPetCommand } from './get-pet-command.ts';
export { GetUnknownPetCommand, UNKNOWN_ID_DISTANCE } from './get-unknown-pet-command.ts';
export { LIST_LIMIT, ListPetsCommand } from './list-pets-command.ts';
export type { StoreUnderTest, StoreAnswer, StoreReal } from './pet-store.ts';
export { storeCommands, type StoreCommand, type StoreCommandsOptions } from './store-commands.ts';
export { createStoreModel, differences, isOurs, type StoreModel } from './store-model.ts';
export { runStoreModel, type RunStoreModelOptions } from './run-store-model.ts';
