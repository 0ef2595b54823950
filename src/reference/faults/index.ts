export { FAULTS, FAULT_NAMES, isFaultName, type FaultName } from './all-faults.ts';
export { composeFaults } from './compose.ts';
export type { AuthAttempt, FaultDefinition, FaultGroup, FaultHooks, ReplyContext } from './hooks.ts';
