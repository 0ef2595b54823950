export {
  EVERY_FAULT,
  FAULTS,
  FAULT_NAMES,
  FAULT_SET_NAMES,
  INDEPENDENT_FAULTS,
  INDEPENDENT_FAULT_NAMES,
  OUTSIDE_FAULTS,
  OUTSIDE_FAULT_NAMES,
  faultsOfSet,
  isFaultName,
  type AnyFaultName,
  type FaultName,
  type FaultSetName,
  type IndependentFaultName,
  type OutsideFaultName,
  type TaggedFault,
} from './all-faults.ts';
export { composeFaults } from './compose.ts';
export type { AuthAttempt, FaultDefinition, FaultGroup, FaultHooks, ReplyContext } from './hooks.ts';
