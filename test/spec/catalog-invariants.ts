import type { Catalog } from '../../src/catalog/catalog.ts';

const TITLE_ID = /^([A-Z][A-Z0-9]*-\d+)\s/;

/**
 * What must hold between the catalog, the suites and the faults: every requirement declared tested has
 * a suite test; every suite test names a requirement of the catalog; every fault names only
 * requirements of the catalog, and only ones that can be tested. One line per violation.
 */
export function catalogViolations(
  catalog: Catalog,
  testTitles: readonly string[],
  faults: ReadonlyArray<{ name: string; detectedBy: readonly string[] }>,
): string[] {
  const out: string[] = [];
  const tested = new Set<string>();
  for (const fullName of testTitles) {
    // vitest's full name puts the describe blocks first: "rate-limit exhaustion > RATE-004 …".
    const title = fullName.split(' > ').at(-1) ?? fullName;
    const id = TITLE_ID.exec(title)?.[1];
    if (id === undefined) out.push(`suite test "${title}" does not start with a requirement id`);
    else if (!catalog.has(id)) out.push(`suite test "${title}" names ${id}, which the catalog does not hold`);
    else tested.add(id);
  }
  for (const r of catalog.requirements) {
    if (r.coverage === 'tested' && !tested.has(r.id)) out.push(`${r.id} is declared tested but no suite test proves it`);
    if (r.coverage === 'not-covered' && tested.has(r.id)) out.push(`${r.id} is declared not covered but a suite test names it`);
  }
  for (const fault of faults) {
    for (const id of fault.detectedBy) {
      if (!catalog.has(id)) out.push(`fault ${fault.name} names ${id}, which the catalog does not hold`);
      else if (catalog.get(id).coverage === 'not-covered') out.push(`fault ${fault.name} names ${id}, which is not covered`);
    }
    if (fault.detectedBy.length === 0) out.push(`fault ${fault.name} names no requirement that detects it`);
  }
  return out;
}
