// node mutation/rebind.mjs [--write]: re-locates the entries of mutation/equivalents.yaml whose code moved.
//
// An entry is bound to one mutant by its location (`at`) and the source line it starts on (`source`).
// When code moves, the entry matches nothing and the run fails. This command lists the mutants of both
// runs (without running one) and, for each entry that no longer matches, looks for the mutant with the
// same file, mutator, replaced text, replacement and source line elsewhere in the file: exactly one such
// mutant not bound to another entry is a move, printed old → new for review (--write records it). An entry
// whose text or line changed, or that has several candidates, is printed as unresolved: review it by hand
// (`node mutation/list-mutants.mjs` shows every mutant and its location). A reviewed range (`ranges`)
// whose first and last lines moved together is re-located the same way. An entry written without a
// location (a new one) is bound the same way; its `context`, if given, narrows the candidates to the
// mutants whose line contains it.
/* global process, console */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { selectFiles } from './globs.mjs';
import { listMutants } from './list-mutants.mjs';
import { ENTRIES_FILE, loadEntries, normalise, rangeHolds } from './reviewed-equivalents.mjs';
import { mutatePatterns } from './targets.mjs';

/** The mutants of a run, each with its key without the location. */
async function mutantsOf(run) {
  const files = selectFiles(mutatePatterns({ variants: run === 'variants' }));
  const { mutants } = await listMutants(files, undefined, run, { none: true });
  return mutants.map((m) => ({ ...m, source: normalise(m.source), key: [m.file, m.mutator, normalise(m.original), normalise(m.replacement)].join('\0') }));
}

/**
 * The bindings to propose: for each entry of `entries` (with `run` filtered as loadEntries does) that
 * matches no mutant at its location, the one candidate it moved to, or why there is none.
 */
export function rebind(entries, mutants) {
  const at = (m) => `${m.key}\0${m.at}`;
  const files = new Set(mutants.map((m) => m.file));
  const bound = new Set();
  const loose = [];
  for (const entry of entries.filter((e) => files.has(e.file))) {
    const key = [entry.file, entry.mutator, entry.original, entry.replacement].join('\0');
    const here = mutants.find((m) => at(m) === `${key}\0${entry.at}` && m.source === entry.source);
    if (here) bound.add(at(here));
    else loose.push({ entry, key });
  }
  const proposals = [];
  const fits = (entry, m) => (entry.source !== undefined ? m.source === entry.source : entry.context === undefined || m.source.includes(entry.context));
  for (const { entry, key } of loose) {
    const candidates = mutants.filter((m) => m.key === key && !bound.has(at(m)) && fits(entry, m));
    // Unbound entries written alike (a former `count`): as many entries as free candidates bind in order,
    // each printed for review.
    const alike = loose.filter((l) => l.key === key && l.entry.at === undefined && l.entry.source === entry.source && l.entry.context === entry.context);
    const pending = alike.filter((l) => !proposals.some((p) => p.entry === l.entry));
    if (candidates.length === 1 || (entry.at === undefined && candidates.length > 1 && candidates.length === pending.length)) {
      bound.add(at(candidates[0]));
      proposals.push({ entry, to: candidates[0], alike: candidates.length > 1 });
    } else {
      proposals.push({ entry, candidates });
    }
  }
  return proposals;
}

/**
 * Where a reviewed range moved: the one place of `lines` (the file's lines) where its first and last lines
 * stand as far apart as before; undefined when it holds, null when there is no such place or several.
 */
export function relocateRange(range, lines) {
  if (rangeHolds(range, lines)) return undefined;
  const span = range.to - range.from;
  const starts = lines.flatMap((line, i) => (normalise(line) === range.first && normalise(lines[i + span] ?? '') === range.last ? [i + 1] : []));
  return starts.length === 1 ? `${starts[0]}-${starts[0] + span}` : null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const write = process.argv.includes('--write');
  const byRun = { reference: await mutantsOf('reference'), variants: await mutantsOf('variants') };
  const doc = parseDocument(readFileSync(ENTRIES_FILE, 'utf8'));
  const seen = new Map();
  let unresolved = 0;
  for (const run of ['reference', 'variants']) {
    const { entries } = loadEntries(ENTRIES_FILE, run, { unbound: true });
    for (const proposal of rebind(entries, byRun[run])) {
      const { entry } = proposal;
      const where = `#${entry.index} ${entry.file} ${entry.mutator} ${JSON.stringify(entry.original)} -> ${JSON.stringify(entry.replacement)} [${entry.reason}]`;
      const to = proposal.to;
      const previous = seen.get(entry.index);
      // An entry of both runs (no `run`, a file both mutate) binds to the same mutant in each.
      if (previous !== undefined) {
        if (to && previous === to.at) continue;
        console.log(`UNRESOLVED ${where}: the runs disagree (${previous ?? 'none'} / ${to?.at ?? 'none'})`);
        unresolved += 1;
        continue;
      }
      seen.set(entry.index, to ? to.at : null);
      if (to) {
        console.log(`${proposal.alike ? 'ONE OF ALIKE' : 'MOVED'} ${where}: ${entry.at ?? '(unbound)'} → ${to.at}\n    ${to.source}`);
        if (write) {
          const node = doc.getIn(['entries', entry.index]);
          node.set('at', to.at);
          node.set('source', to.source);
          node.delete('context');
        }
      } else {
        unresolved += 1;
        const list = proposal.candidates.map((m) => `\n    candidate ${m.at}: ${m.source}`).join('');
        console.log(`UNRESOLVED ${where}: ${proposal.candidates.length} candidates${list}`);
      }
    }
  }
  for (const range of loadEntries(ENTRIES_FILE, 'reference', { unbound: true }).ranges) {
    const to = relocateRange(range, readFileSync(range.file, 'utf8').split('\n'));
    if (to === undefined) continue;
    if (to === null) {
      unresolved += 1;
      console.log(
        `UNRESOLVED range #${range.index} ${range.file}:${range.lines} [${range.reason}]: its first and last lines are not found ${range.to - range.from} lines apart, once`,
      );
      continue;
    }
    console.log(`MOVED range #${range.index} ${range.file}:${range.lines} [${range.reason}] → ${to}`);
    if (write) doc.getIn(['ranges', range.index]).set('lines', to);
  }
  if (write) writeFileSync(ENTRIES_FILE, doc.toString({ lineWidth: 0 }));
  console.log(
    `${seen.size} entries re-located or unresolved, ${unresolved} unresolved${write ? '; written: review the diff' : ' (--write records the moves)'}`,
  );
  process.exitCode = unresolved ? 1 : 0;
}
