import { HarnessError } from '../errors.ts';
import { wwwAuthenticateOn401 } from './auth-checks.ts';
import { connectionKeptOpen, nothingUnasked } from './connection-checks.ts';
import { jsonContentType, responseSchema } from './body-checks.ts';
import { deprecationOnlyWhereDeprecated, deprecationStructuredDate, sunsetDate } from './deprecation-checks.ts';
import { errorBodyOn429, errorEnvelope, errorFieldsNonEmpty, errorStatusMatches } from './error-checks.ts';
import { ietfRateLimitAgrees } from './ietf-rate-limit-checks.ts';
import { rateLimitHeadersPresent, rateLimitHeadersWellFormed, retryAfterOn429, retryAfterWellFormed } from './rate-limit-checks.ts';
import { documentedStatus, noServerError } from './status-checks.ts';
import type { Check, CheckContext, Finding } from './check-types.ts';

/** Every always-on check, in the order their findings are listed. Add a check here and nowhere else. */
export const CHECKS: readonly Check[] = Object.freeze([
  noServerError,
  documentedStatus,
  jsonContentType,
  responseSchema('listPets', 200, 'SCH-001'),
  responseSchema('createPet', 201, 'SCH-002'),
  responseSchema('getPet', 200, 'SCH-003'),
  errorEnvelope,
  errorStatusMatches,
  errorFieldsNonEmpty,
  errorBodyOn429,
  rateLimitHeadersPresent,
  rateLimitHeadersWellFormed,
  retryAfterOn429,
  retryAfterWellFormed,
  ietfRateLimitAgrees,
  wwwAuthenticateOn401,
  sunsetDate,
  deprecationOnlyWhereDeprecated,
  deprecationStructuredDate,
  connectionKeptOpen,
  nothingUnasked,
]);

/**
 * Runs `checks` on one response and returns what failed. A check that throws is a bug in the suite,
 * not a fault of the target, so it becomes a HarnessError (run incomplete) rather than a finding.
 */
export function runChecks(ctx: CheckContext, checks: readonly Check[] = CHECKS): Finding[] {
  const findings: Finding[] = [];
  for (const check of checks) {
    let violation;
    try {
      violation = check.run(ctx);
    } catch (cause) {
      throw new HarnessError('ERR_INTERNAL', `check ${check.name} threw on a ${ctx.status} response`, { cause });
    }
    if (violation) {
      findings.push({
        requirementId: check.requirementId,
        check: check.name,
        expected: violation.expected,
        actual: violation.actual,
        exchangeSeq: ctx.exchangeSeq ?? 0,
      });
    }
  }
  return findings;
}
