export { FAULTS, FAULT_NAMES, isFaultName, type FaultName } from './catalogue.ts';
export { composeFaults } from './compose.ts';
export type { AuthAttempt, FaultDefinition, FaultGroup, FaultHooks, ReplyContext } from './hooks.ts';
