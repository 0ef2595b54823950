export { CHECKS, runChecks } from './registry.ts';
export type { Check, CheckContext, CheckViolation } from './types.ts';
export { parseHttpDate, mediaType } from './header-values.ts';
