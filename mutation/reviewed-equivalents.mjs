// The reviewed equivalent mutants (mutation/equivalents.yaml): the only mutants the mutation run ignores.
//
// Stryker's own means are too broad for this: a `// Stryker disable next-line <Mutator>` comment ignores
// every replacement of that mutator on the line, and an ignorer plugin ignores a whole syntax node with
// every mutant in it. An entry here names ONE mutant: its file, its mutator, the source text it replaces
// and the replacement, bound by its location (`at`: line:column, both from 1) and the source line it
// starts on (`source`, whitespace collapsed). An entry never covers a sibling mutant its reason does not
// describe, and never silently moves to new identical text: when its code moves, the entry matches
// nothing and the run fails until `node mutation/rebind.mjs` re-locates it for review.
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

/**
 * `[<kind> <reason>] #<n>` (an entry) or `[<kind> <reason>] range #<n>` (a reviewed range): the prefix of
 * an ignored mutant's statusReason (parsed by the audit and the score). The kind is `equivalent` (no
 * client can tell the mutant apart) or `permitted` (a client can, but the interface allows both), so a
 * kept report says which without the entries file.
 */
const TAG = /^\[(?:equivalent|permitted) ([a-z0-9-]+)\] (range )?#(\d+): /;

/**
 * Reasons no entry may name any more: the run's own liberty stage (the variants' test) kills a mutant
 * that turns a valid variant's choice off, and a mutant reached only under a variant's option is run
 * there too. The audit fails on an entry that names one.
 */
export const RETIRED_REASONS = Object.freeze({
  'variant-choice': "the liberty stage judges a variant's choice: drop the entry, or name variant-default when the mutant makes the default take the choice",
  'variant-only': "the liberty stage runs every variant's option: drop the entry",
});

/** The kind of a reason: `permitted` when the entries file lists it under `permitted:`, else `equivalent`. */
export function kindOf(reason, permitted) {
  return permitted.has(reason) ? 'permitted' : 'equivalent';
}

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
export function loadEntries(file = ENTRIES_FILE, run = currentRun(), { unbound = false } = {}) {
  const doc = parse(readFileSync(file, 'utf8'));
  const reasons = doc?.reasons ?? {};
  const permitted = new Set(doc?.permitted ?? []);
  for (const reason of permitted) if (!(reason in reasons)) throw new Error(`${file}: permitted names the unknown reason ${reason}`);
  const entries = (doc?.entries ?? []).map((entry, index) => {
    for (const field of ['file', 'mutator', 'original', 'replacement', 'reason', ...(unbound ? [] : ['at', 'source'])]) {
      if (typeof entry?.[field] !== 'string')
        throw new Error(`${file}: entry #${index} lacks ${field}${field === 'at' || field === 'source' ? ' (node mutation/rebind.mjs)' : ''}`);
    }
    if (!(entry.reason in reasons)) throw new Error(`${file}: entry #${index} names the unknown reason ${entry.reason}`);
    if (!unbound && entry.count !== undefined) throw new Error(`${file}: entry #${index}: count is gone: one entry per mutant, bound by at and source`);
    if (entry.at !== undefined && !/^\d+:\d+$/.test(entry.at)) throw new Error(`${file}: entry #${index}: at must be line:column`);
    if (entry.run !== undefined && entry.run !== 'reference' && entry.run !== 'variants')
      throw new Error(`${file}: entry #${index}: run must be reference or variants`);
    return {
      ...entry,
      index,
      original: normalise(entry.original),
      replacement: normalise(entry.replacement),
      ...(entry.source === undefined ? {} : { source: normalise(entry.source) }),
      ...(entry.context === undefined ? {} : { context: normalise(String(entry.context)) }),
    };
  });
  const ranges = (doc?.ranges ?? []).map((range, index) => {
    for (const field of ['file', 'lines', 'first', 'last', 'reason']) {
      if (typeof range?.[field] !== 'string') throw new Error(`${file}: range #${index} lacks ${field}`);
    }
    if (!(range.reason in reasons)) throw new Error(`${file}: range #${index} names the unknown reason ${range.reason}`);
    const match = /^(\d+)-(\d+)$/.exec(range.lines);
    if (!match || Number(match[1]) > Number(match[2])) throw new Error(`${file}: range #${index}: lines must be <first>-<last>`);
    return { ...range, index, from: Number(match[1]), to: Number(match[2]), first: normalise(range.first), last: normalise(range.last) };
  });
  return { reasons, permitted, entries: entries.filter((entry) => entry.run === undefined || entry.run === run), ranges };
}

/** Whether a range's first and last lines still read as it says (the file's lines, from 0). */
export function rangeHolds(range, lines) {
  return normalise(lines[range.from - 1] ?? '') === range.first && normalise(lines[range.to - 1] ?? '') === range.last;
}

/** The statusReason an ignored mutant carries: its kind, the reason's key, the entry's number, the reason text. */
export function ignoreReason(entry, reasons, permitted = new Set()) {
  return `[${kindOf(entry.reason, permitted)} ${entry.reason}] #${entry.index}: ${reasons[entry.reason]}`;
}

/** The statusReason of a mutant a reviewed range ignores. */
export function rangeReason(range, reasons, permitted = new Set()) {
  return `[${kindOf(range.reason, permitted)} ${range.reason}] range #${range.index}: ${reasons[range.reason]}`;
}

/** The entry number an ignored mutant's statusReason names, or undefined for any other reason. */
export function entryOf(statusReason) {
  const match = TAG.exec(statusReason ?? '');
  return match && !match[2] ? Number(match[3]) : undefined;
}

/** The range number an ignored mutant's statusReason names, or undefined for any other reason. */
export function rangeOf(statusReason) {
  const match = TAG.exec(statusReason ?? '');
  return match?.[2] ? Number(match[3]) : undefined;
}

/** The project-relative, slash-separated path of a file Stryker names (in the project or its sandbox). */
export function projectPath(fileName, root = process.cwd()) {
  const rel = relative(root, fileName).split(sep).join('/');
  const at = rel.indexOf('src/');
  return at > 0 ? rel.slice(at) : rel;
}

/** The key an entry and a mutant share: file, mutator, location, the replaced text and the replacement. */
function keyOf(file, mutator, at, original, replacement) {
  return [file, mutator, at, normalise(original), normalise(replacement)].join('\0');
}

/**
 * A matcher: (file, mutator, at, original text, replacement text, source line) → the entry that covers
 * it, or undefined. An entry matches only the mutant at its location whose line still reads as it did.
 */
export function createMatcher({ entries }) {
  const byKey = new Map();
  for (const entry of entries) {
    const key = keyOf(entry.file, entry.mutator, entry.at, entry.original, entry.replacement);
    const clash = byKey.get(key);
    if (clash) throw new Error(`equivalents: entries #${clash.index} and #${entry.index} name the same mutant`);
    byKey.set(key, entry);
  }
  return (file, mutator, at, original, replacement, line) => {
    const entry = byKey.get(keyOf(file, mutator, at, original, replacement));
    return entry && entry.source === normalise(line) ? entry : undefined;
  };
}

/** The source text a mutant replaces, where it starts (line:column, from 1) and the whole line it starts on. */
export function originalText(mutant, sources) {
  const { start, end } = mutant.original;
  if (typeof start !== 'number' || typeof end !== 'number') throw new Error('equivalents: a mutated node has no source offsets');
  let text = sources.get(mutant.fileName);
  if (text === undefined) {
    text = readFileSync(mutant.fileName, 'utf8');
    sources.set(mutant.fileName, text);
  }
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', start);
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) line += 1;
  return {
    original: text.slice(start, end),
    at: `${line}:${start - lineStart + 1}`,
    line: text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd),
  };
}

/** Wraps Stryker's MutantCollector so every mutant an entry names is ignored with the entry's reason. */
export async function installReviewedEquivalents(file = ENTRIES_FILE, run = currentRun(), { none = false } = {}) {
  // none: every mutant as Stryker makes it, no entry applied (mutation/rebind.mjs binds entries to them).
  const loaded = none ? { reasons: {}, permitted: new Set(), entries: [], ranges: [] } : loadEntries(file, run);
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
      const { original, at, line } = originalText(mutant, sources);
      const path = projectPath(mutant.fileName);
      const found = match(path, mutant.mutatorName, at, original, mutant.replacementCode, line);
      if (found) mutant.ignoreReason = ignoreReason(found, loaded.reasons, loaded.permitted);
      else {
        // A reviewed range: the mutants starting on its lines, while its first and last lines hold their text.
        const row = Number(at.split(':')[0]);
        const lines = sources.get(mutant.fileName).split('\n');
        const range = loaded.ranges.find((r) => r.file === path && row >= r.from && row <= r.to && rangeHolds(r, lines));
        if (range) mutant.ignoreReason = rangeReason(range, loaded.reasons, loaded.permitted);
      }
    }
    return mutant;
  };
  wrapped.unwrapped = original;
  MutantCollector.prototype.collect = wrapped;
  return loaded;
}
