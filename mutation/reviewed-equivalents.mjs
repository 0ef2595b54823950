// The reviewed equivalent mutants (mutation/equivalents.yaml): the only mutants the mutation run ignores.
//
// Stryker's own means are too broad for this: a `// Stryker disable next-line <Mutator>` comment ignores
// every replacement of that mutator on the line, and an ignorer plugin ignores a whole syntax node with
// every mutant in it. An entry here names ONE mutant: its file, its mutator, the source text it replaces
// and the replacement, so an entry survives edits elsewhere in the file and never covers a sibling
// mutant its reason does not describe.
//
// How: installReviewedEquivalents() wraps the instrumenter's MutantCollector.collect (the one place every
// mutant is created, before Stryker decides whether to place it) and sets the mutant's ignore reason
// when an entry matches, exactly as a disable comment would. The wrapper checks the internals it relies
// on and throws when a Stryker upgrade changes them, so the run never silently ignores nothing.
/* global process, URL */
import { readFileSync, realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'yaml';

export const ENTRIES_FILE = fileURLToPath(new URL('./equivalents.yaml', import.meta.url));

/** `[equivalent <reason>] #<n>`: the prefix of an ignored mutant's statusReason (parsed by the audit). */
const TAG = /^\[equivalent ([a-z0-9-]+)\] #(\d+): /;

/** Whitespace runs collapsed to one space: entries survive re-indentation and line wrapping. */
export function normalise(text) {
  return text.replace(/\s+/g, ' ').trim();
}

/** The run a process measures: `variants` under MUTATION_VARIANTS=1 (npm run mutation -- --variants), else `reference`. */
export function currentRun(env = process.env) {
  return env.MUTATION_VARIANTS === '1' ? 'variants' : 'reference';
}

/**
 * The entries file, checked: every entry complete and naming a known reason. An entry with `run` applies
 * to that run only (a mutant the reference run cannot reach may be one the variant run kills); the
 * entries of other runs are left out.
 */
export function loadEntries(file = ENTRIES_FILE, run = currentRun()) {
  const doc = parse(readFileSync(file, 'utf8'));
  const reasons = doc?.reasons ?? {};
  const entries = (doc?.entries ?? []).map((entry, index) => {
    for (const field of ['file', 'mutator', 'original', 'replacement', 'reason']) {
      if (typeof entry?.[field] !== 'string') throw new Error(`${file}: entry #${index} lacks ${field}`);
    }
    if (!(entry.reason in reasons)) throw new Error(`${file}: entry #${index} names the unknown reason ${entry.reason}`);
    const count = entry.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new Error(`${file}: entry #${index}: count must be a positive integer`);
    if (entry.context !== undefined && typeof entry.context !== 'string') throw new Error(`${file}: entry #${index}: context must be a string`);
    const context = entry.context === undefined ? undefined : normalise(entry.context);
    if (entry.run !== undefined && entry.run !== 'reference' && entry.run !== 'variants')
      throw new Error(`${file}: entry #${index}: run must be reference or variants`);
    return { ...entry, index, count, context, original: normalise(entry.original), replacement: normalise(entry.replacement) };
  });
  return { reasons, entries: entries.filter((entry) => entry.run === undefined || entry.run === run) };
}

/** The statusReason an ignored mutant carries: the reason's key, the entry's number, the reason text. */
export function ignoreReason(entry, reasons) {
  return `[equivalent ${entry.reason}] #${entry.index}: ${reasons[entry.reason]}`;
}

/** The entry number an ignored mutant's statusReason names, or undefined for any other reason. */
export function entryOf(statusReason) {
  const match = TAG.exec(statusReason ?? '');
  return match ? Number(match[2]) : undefined;
}

/** The project-relative, slash-separated path of a file Stryker names (in the project or its sandbox). */
export function projectPath(fileName, root = process.cwd()) {
  const rel = relative(root, fileName).split(sep).join('/');
  const at = rel.indexOf('src/');
  return at > 0 ? rel.slice(at) : rel;
}

/**
 * A matcher: (file, mutator, original text, replacement text, source line) → the entry that covers it,
 * or undefined. Where the same text is mutated the same way in several places of a file and only some
 * are equivalent, the entry's `context` (a piece of the mutant's source line) tells them apart.
 */
export function createMatcher({ entries }) {
  const byKey = new Map();
  for (const entry of entries) {
    const key = [entry.file, entry.mutator, entry.original, entry.replacement].join('\0');
    const same = byKey.get(key) ?? [];
    const clash = same.find((other) => other.context === entry.context || !other.context || !entry.context);
    if (clash) throw new Error(`equivalents: entries #${clash.index} and #${entry.index} name the same mutant (give both a context)`);
    byKey.set(key, [...same, entry]);
  }
  return (file, mutator, original, replacement, line) => {
    const candidates = byKey.get([file, mutator, normalise(original), normalise(replacement)].join('\0')) ?? [];
    const text = normalise(line);
    return candidates.find((entry) => !entry.context || text.includes(entry.context));
  };
}

/** The source text a mutant replaces, and the whole line it starts on. */
function originalText(mutant, sources) {
  const { start, end } = mutant.original;
  if (typeof start !== 'number' || typeof end !== 'number') throw new Error('equivalents: a mutated node has no source offsets');
  let text = sources.get(mutant.fileName);
  if (text === undefined) {
    text = readFileSync(mutant.fileName, 'utf8');
    sources.set(mutant.fileName, text);
  }
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', start);
  return { original: text.slice(start, end), line: text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd) };
}

/** Wraps Stryker's MutantCollector so every mutant an entry names is ignored with the entry's reason. */
export async function installReviewedEquivalents(file = ENTRIES_FILE, run = currentRun()) {
  const loaded = loadEntries(file, run);
  const match = createMatcher(loaded);
  const entry = realpathSync(fileURLToPath(import.meta.resolve('@stryker-mutator/instrumenter')));
  const { MutantCollector } = await import(new URL('./transformers/mutant-collector.js', pathToFileURL(entry)).href);
  const collect = MutantCollector?.prototype?.collect;
  if (typeof collect !== 'function') {
    throw new Error('equivalents: @stryker-mutator/instrumenter no longer has MutantCollector.collect: update mutation/reviewed-equivalents.mjs');
  }
  // Installed again (another entries file, in the project's tests): the new entries replace the old.
  const original = collect.unwrapped ?? collect;
  const sources = new Map();
  const wrapped = function (...args) {
    const mutant = original.apply(this, args);
    if (typeof mutant?.mutatorName !== 'string' || typeof mutant.replacementCode !== 'string' || !mutant.original) {
      throw new Error('equivalents: the shape of a Stryker mutant changed: update mutation/reviewed-equivalents.mjs');
    }
    if (!mutant.ignoreReason) {
      const { original, line } = originalText(mutant, sources);
      const found = match(projectPath(mutant.fileName), mutant.mutatorName, original, mutant.replacementCode, line);
      if (found) mutant.ignoreReason = ignoreReason(found, loaded.reasons);
    }
    return mutant;
  };
  wrapped.unwrapped = original;
  MutantCollector.prototype.collect = wrapped;
  return loaded;
}
