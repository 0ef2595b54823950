import { HarnessError } from '../errors.ts';

/*
 * --only: a list of requirement ids and areas. The one reading of it, for the harness (which test
 * runs), the report (why a requirement went untested), the suite files a run loads and a replay.
 */

/** Whether --only selects a requirement: by its id or its area; an empty selection selects every one. */
export function isSelected(only: readonly string[], requirement: { readonly id: string; readonly area: string }): boolean {
  return only.length === 0 || only.includes(requirement.id) || only.includes(requirement.area);
}

/** Why a requirement --only leaves out was not tested: the harness's skip and the report's verdict say it alike. */
export function notSelectedReason(only: readonly string[]): string {
  return `not selected (--only ${only.join(',')})`;
}

/** --only names requirement ids or areas of the catalog: a typo would otherwise select nothing. */
export function checkSelection(only: readonly string[], catalog: { has(id: string): boolean; readonly areas: Readonly<Record<string, unknown>> }): void {
  const unknown = only.filter((s) => !catalog.has(s) && !(s in catalog.areas));
  if (unknown.length > 0) {
    throw new HarnessError('ERR_CONFIG', `--only names no requirement or area: ${unknown.join(', ')} (areas: ${Object.keys(catalog.areas).join(', ')})`);
  }
}
