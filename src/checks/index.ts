export { CHECKS, runChecks } from './registry.ts';
export type { Check, CheckContext, CheckViolation, Finding } from './check-types.ts';
