// Every mutant of the mutated files, without running one: `node mutation/list-mutants.mjs [--variants]
// [--json]`. Prints each mutant (file:line:column, mutator, the source text it replaces → the
// replacement) and, for the ignored ones, the entry of mutation/equivalents.yaml that covers it; then the
// counts by reason, and fails on an entry that matches no mutant (its code moved or changed: see
// mutation/rebind.mjs) or more than one. It is the fast half of the audit `npm run mutation` runs after
// Stryker (mutation/run.mjs).
/* global process, console */
import { readFileSync } from 'node:fs';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { entryOf, installReviewedEquivalents, projectPath } from './reviewed-equivalents.mjs';
import { auditEntries, printAudit } from './audit.mjs';
import { selectFiles } from './globs.mjs';
import { mutatePatterns } from './targets.mjs';

/** The mutants Stryker would make of `files`, with the reviewed entries applied (none: without them). */
export async function listMutants(files, entriesFile, run, { none = false } = {}) {
  const loaded = await installReviewedEquivalents(entriesFile, run, { none });
  const quiet = () => {};
  const logger = {
    debug: quiet,
    info: quiet,
    warn: console.warn,
    error: console.error,
    trace: quiet,
    fatal: console.error,
    isDebugEnabled: () => false,
    isTraceEnabled: () => false,
    isInfoEnabled: () => false,
    isWarnEnabled: () => true,
    isErrorEnabled: () => true,
    isFatalEnabled: () => true,
  };
  const instrumenter = new Instrumenter(logger);
  const inputs = files.map((name) => ({ name: `${process.cwd()}/${name}`, content: readFileSync(name, 'utf8'), mutate: true }));
  const { mutants } = await instrumenter.instrument(inputs, { plugins: null, excludedMutations: [], ignorers: [], noHeader: true });
  const lines = new Map(inputs.map((f) => [f.name, f.content.split('\n')]));
  return {
    loaded,
    mutants: mutants.map((m) => {
      const file = projectPath(m.fileName);
      const { start, end } = m.location;
      const text = lines.get(m.fileName);
      const original =
        start.line === end.line
          ? text[start.line].slice(start.column, end.column)
          : [text[start.line].slice(start.column), ...text.slice(start.line + 1, end.line), text[end.line].slice(0, end.column)].join('\n');
      return {
        file,
        line: start.line + 1,
        at: `${start.line + 1}:${start.column + 1}`,
        source: text[start.line],
        mutator: m.mutatorName,
        original,
        replacement: m.replacement,
        status: m.status,
        statusReason: m.statusReason,
        entry: entryOf(m.statusReason),
      };
    }),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const files = selectFiles(mutatePatterns({ variants: args.includes('--variants') }));
  const { loaded, mutants } = await listMutants(files, undefined, args.includes('--variants') ? 'variants' : 'reference');
  if (args.includes('--json')) {
    console.log(JSON.stringify(mutants, null, 1));
  } else {
    for (const m of mutants) {
      const tag = m.entry !== undefined ? `  IGNORED #${m.entry}` : m.status ? `  ${m.status}` : '';
      console.log(
        `${m.file}:${m.at} ${m.mutator} ${JSON.stringify(m.original.replace(/\s+/g, ' ').slice(0, 160))} -> ${JSON.stringify(m.replacement.replace(/\s+/g, ' ').slice(0, 100))}${tag}`,
      );
    }
  }
  const audit = auditEntries(loaded, mutants, new Set(files));
  printAudit(audit, mutants.length, console.error);
  process.exitCode = audit.problems.length ? 1 : 0;
}
