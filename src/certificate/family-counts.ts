import { type InvalidationKind, NEW_PET_REF, invalidationsOf } from '../arbitraries/index.ts';
import type { Profile } from '../config/profiles.ts';
import type { Contract } from '../contract/index.ts';

/**
 * How many input families a property test sends one case of before its generated cases, as the
 * suites derive them from the contract (suites/support/property-families.ts): the count follows the
 * contract alone (the run's options shape the values, never how many), and the suite's own contract is
 * under its identity, so rejudge computes it rather than reading the report's `property.families`,
 * which the judged side could shorten. Quick sends no family (suites/support/property-cases.ts).
 * test/certificate/family-counts.test.ts holds these counts to the suites' own families.
 */

/** The kind of invalid NewPet each invalid-body property sends one family of per named invalidation. */
const INVALID_KINDS: Readonly<Record<string, InvalidationKind>> = {
  'STA-005': 'missing-field',
  'STA-006': 'wrong-value',
  'STA-007': 'not-object',
  'INT-002': 'out-of-range',
};

function petStatusCount(contract: Contract): number {
  const values = contract.document.components.schemas.PetStatus?.enum;
  return Array.isArray(values) ? values.filter((value) => typeof value === 'string').length : 0;
}

/** The families a passed property test of this requirement sent at this profile; undefined where not known. */
export function familyCases(requirementId: string, profile: Profile, contract: Contract): number | undefined {
  if (profile === 'quick') return 0;
  // SCH-006: without status, one per PetStatus, a long name, members reordered.
  if (requirementId === 'SCH-006') return 3 + petStatusCount(contract);
  // LIM-008: the limit's two bounds, one per PetStatus as a filter.
  if (requirementId === 'LIM-008') return 2 + petStatusCount(contract);
  const kind = INVALID_KINDS[requirementId];
  if (kind === undefined) return undefined;
  // The tag only names the generated values: the suites' tag is the run's, the count the same.
  return invalidationsOf(contract, NEW_PET_REF, { nameTag: 'count' }).filter((invalidation) => invalidation.kind === kind).length;
}
