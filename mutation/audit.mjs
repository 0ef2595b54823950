// The audit of mutation/equivalents.yaml against the mutants of a run: how many each reason ignores, and
// the entries that have rotted (an entry that matches no mutant of a mutated file: its location no longer
// holds its text, because the code moved or changed; or one that matches more than one mutant). A rotted
// entry fails the run: the list must say exactly what it ignores. So does an entry of a retired reason
// (RETIRED_REASONS: the run's liberty stage kills such mutants itself). The ignored mutants are counted
// by kind too: equivalent (no client can tell) apart from permitted (the interface allows both). `node mutation/rebind.mjs` re-locates
// the entries whose text and source line moved unchanged, for review.
import { RETIRED_REASONS, entryOf, kindOf, rangeOf } from './reviewed-equivalents.mjs';

/** mutants: [{ file, statusReason }]; files: the files the run mutated (an entry elsewhere is not judged). */
export function auditEntries({ reasons, permitted = new Set(), entries, ranges = [] }, mutants, files) {
  const matched = new Map();
  const inRange = new Map();
  for (const mutant of mutants) {
    const index = entryOf(mutant.statusReason);
    if (index !== undefined) matched.set(index, (matched.get(index) ?? 0) + 1);
    const range = rangeOf(mutant.statusReason);
    if (range !== undefined) inRange.set(range, (inRange.get(range) ?? 0) + 1);
  }
  const byReason = Object.fromEntries(Object.keys(reasons).map((reason) => [reason, 0]));
  const problems = [];
  for (const entry of entries) {
    const found = matched.get(entry.index) ?? 0;
    byReason[entry.reason] += found;
    const where = `#${entry.index} ${entry.file}:${entry.at} ${entry.mutator} ${JSON.stringify(entry.original)} -> ${JSON.stringify(entry.replacement)}`;
    if (entry.reason in RETIRED_REASONS) problems.push(`entry ${where} names the retired reason ${entry.reason}: ${RETIRED_REASONS[entry.reason]}`);
    if (!files.has(entry.file)) continue;
    if (found === 0) problems.push(`entry ${where} matches no mutant: its location no longer holds its text (moved? node mutation/rebind.mjs), or it is gone`);
    else if (found !== 1) problems.push(`entry ${where} matches ${found} mutants, not one`);
  }
  for (const range of ranges) {
    const found = inRange.get(range.index) ?? 0;
    byReason[range.reason] += found;
    if (files.has(range.file) && found === 0) {
      problems.push(
        `range #${range.index} ${range.file}:${range.lines} ignores no mutant: its lines no longer read as it says (moved? node mutation/rebind.mjs), or hold no mutant`,
      );
    }
  }
  const ignored = [...matched.values(), ...inRange.values()].reduce((a, b) => a + b, 0);
  const otherIgnored = mutants.filter((m) => m.status === 'Ignored' && entryOf(m.statusReason) === undefined && rangeOf(m.statusReason) === undefined).length;
  if (otherIgnored) problems.push(`${otherIgnored} mutants are ignored by something other than a reviewed entry (a Stryker disable comment?)`);
  const byKind = { equivalent: 0, permitted: 0 };
  for (const [reason, count] of Object.entries(byReason)) byKind[kindOf(reason, permitted)] += count;
  return { byReason, byKind, ignored, problems };
}

export function printAudit({ byReason, byKind, ignored, problems }, total, print) {
  print(`Reviewed mutants (entries and ranges): ${ignored} of ${total} (${total ? ((100 * ignored) / total).toFixed(1) : '0.0'}%)`);
  print(`  equivalent (no client can tell) ${byKind.equivalent}, permitted (the interface allows both) ${byKind.permitted}; by reason:`);
  for (const [reason, count] of Object.entries(byReason).sort((a, b) => b[1] - a[1])) if (count) print(`  ${String(count).padStart(4)}  ${reason}`);
  for (const problem of problems) print(`ROTTED: ${problem}`);
}
