import { BACKSLASH, referenceAt } from './escaped-text.ts';
import { type Fragments, KEY_FRAGMENT, PAIR, fold, fragmentsOf, unionOfPairs } from './key-fragments.ts';

/*
 * The redactor's first filters (redact.ts): each answers in one pass over a text whether the full scan
 * could find anything in it, so most texts (bodies of generated names, headers) skip the scan; and the
 * last check, whether a text reads as the key once normalised (taintCheck).
 */

/** Line breaks and spacing: a key written across lines, or indented, is still one key. */
export function isSpacing(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** A character a key (or a key-like token) is made of. */
export function isKeyLike(code: number): boolean {
  const lower = code | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x5f;
}

export function isBase64(code: number): boolean {
  return isKeyLike(code) || code === 0x2b || code === 0x2f;
}

/** The fragment sets a first filter reads, ready for it: folded ones first. */
export interface FilterSets {
  /** Whether the filter cannot decide (a set of one character, or with pairs past ASCII): every text is scanned. */
  scanAll: boolean;
  sets: Fragments[];
  foldedCount: number;
  /** The pairs of any folded set, and of any exact one: a pair in neither ends every run at once. */
  anyFolded: Uint8Array;
  anyExact: Uint8Array;
}

export function filterSets(folded: ReadonlyArray<Fragments | undefined>, exact: ReadonlyArray<Fragments | undefined>): FilterSets {
  const present = (set: Fragments | undefined): set is Fragments => set !== undefined;
  const sets = [...folded.filter(present), ...exact.filter(present)];
  const union = (some: Fragments[]) => unionOfPairs(some.map((set) => set.asciiPairList));
  return {
    scanAll: sets.some((set) => set.size < 2 || set.pairs.size > 0),
    sets,
    foldedCount: folded.filter(present).length,
    anyFolded: union(folded.filter(present)),
    anyExact: union(exact.filter(present)),
  };
}

/**
 * Whether `text` could hold a fragment at all: false only for a text in which no set has a long enough run
 * of known pairs, read as the full scan would decode it. Decoding changes a text only at an escape (a
 * backslash before u, x, n, r or t; a percent-encoded character or an HTML character reference), and
 * keptUnits only at a line break: any of those answers true. A `%` or `&` that starts no escape (`100%`,
 * `Tom & Jerry`) decodes to itself and is read as any other character: bodies full of generated text hold
 * many, and each used to cost the text the full scan. Other characters decode to themselves, a run of backslashes to backslashes, and a character past
 * ASCII, letter case folded, either to an ASCII one (the Kelvin sign to k) or to one no ASCII-only set
 * holds. This answers in one pass over the string, without the arrays of the full scan (most bodies and
 * headers are such texts, generated names in any script included).
 */
export function mayHoldFragment(text: string, filter: FilterSets): boolean {
  const { scanAll, sets, foldedCount, anyFolded, anyExact } = filter;
  if (scanAll) return true;
  const runs = new Int32Array(sets.length);
  // Whether some run is under way: most pairs of a text are in no set, and end them all without a loop.
  let running = false;
  // The previous character, exact and folded; -1 for one that no set holds.
  let previous = -1;
  let previousFolded = -1;
  // The end of the run of backslashes read as literal ones.
  let literalUntil = 0;
  for (let i = 0; i < text.length; i += 1) {
    let code = text.charCodeAt(i);
    let lower: number;
    if (code === 0x0a || code === 0x0d || ((code === 0x25 || code === 0x26) && referenceAt(text, i))) return true;
    if (code === BACKSLASH) {
      // A run of backslashes is measured once, at its first.
      if (i >= literalUntil) {
        literalUntil = i;
        while (literalUntil < text.length && text.charCodeAt(literalUntil) === BACKSLASH) literalUntil += 1;
        if (ESCAPE_LETTERS.has(text.charCodeAt(literalUntil))) return true;
      }
      lower = code;
    } else if (code >= 0x80) {
      // Read by UTF-16 unit: each half of a surrogate pair folds to itself, as the pair's code point folds
      // to no ASCII character.
      const folding = fold(code);
      code = -1;
      lower = folding < 0x80 ? folding : -1;
    } else {
      lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    }
    const foldedPair = previousFolded >= 0 && lower >= 0 ? previousFolded * 128 + lower : -1;
    const exactPair = previous >= 0 && code >= 0 ? previous * 128 + code : -1;
    previous = code;
    previousFolded = lower;
    if ((foldedPair < 0 || anyFolded[foldedPair] === 0) && (exactPair < 0 || anyExact[exactPair] === 0)) {
      if (running) runs.fill(0);
      running = false;
      continue;
    }
    running = true;
    for (let k = 0; k < sets.length; k += 1) {
      const set = sets[k]!;
      const pair = k < foldedCount ? foldedPair : exactPair;
      runs[k] = pair >= 0 && set.asciiPairs[pair] === 1 ? runs[k]! + 1 : 0;
      if (runs[k]! >= set.size - 1) return true;
    }
  }
  return false;
}

/**
 * Whether an ASCII text could read as the key once normalised as taintCheck does (controls and spaces
 * removed, letter case folded): false only when no run of known pairs is long enough among the rest.
 * A text past ASCII (NFKC may turn it into ASCII), or with a backslash or `%00` (NUL escapes), answers true.
 */
function mayBeTainted(text: string, fragments: Fragments): boolean {
  const { size, asciiPairs, pairs } = fragments;
  if (size < 2 || pairs.size > 0) return true;
  let run = 0;
  let previous = -1;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || code === BACKSLASH || (code === 0x25 && text.startsWith('00', i + 1))) return true;
    if (code <= 0x20 || code === 0x7f) continue;
    const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
    run = previous >= 0 && asciiPairs[previous * 128 + lower] === 1 ? run + 1 : 0;
    if (run >= size - 1) return true;
    previous = lower;
  }
  return false;
}

/** The letters that make a run of backslashes before them an escape (see backslashEscape). */
const ESCAPE_LETTERS = new Set([0x75, 0x78, 0x6e, 0x72, 0x74]);

// eslint-disable-next-line no-control-regex -- ASCII is every code point below 0x80, controls included
const ASCII = /^[\x00-\x7f]*$/;
/**
 * NUL written as an escape (UTF-16 spelt byte by byte). The lookbehind makes a match start only at the
 * first backslash of a run, so a long run is crossed once, not once per backslash.
 */
const NUL_ESCAPE = /(?<!\\)\\+(?:u0000|x00)|%00/gi;

/** Whether `text` (already lower-cased) holds one of the fragments: the pair filter, then the set. Linear. */
function holdsFragment(text: string, fragments: Fragments): boolean {
  const { size, grams, asciiPairs, pairs } = fragments;
  if (size === 1) return [...text].some((c) => grams.has(c));
  let run = 0;
  for (let i = 0; i + 1 < text.length; i += 1) {
    const first = text.charCodeAt(i);
    const second = text.charCodeAt(i + 1);
    const known = first < 128 && second < 128 ? asciiPairs[first * 128 + second] === 1 : pairs.has(first * PAIR + second);
    run = known ? run + 1 : 0;
    if (run >= size - 1 && grams.has(text.slice(i + 2 - size, i + 2))) return true;
  }
  return false;
}

/**
 * Whether text still reads as the key (or a fragment of it of KEY_FRAGMENT characters, forwards or
 * backwards) once normalised: NFKC (fullwidth and other compatibility letters), without format
 * characters (zero-width, bidi), spacing, NUL or its escapes (UTF-16 written byte by byte), in any
 * letter case. What the fragment scan removed is `***` by then, so only a disguised copy is left to find.
 */
export function taintCheck(secret: string): (text: string) => boolean {
  const fragments = fragmentsOf([secret, [...secret].reverse().join('')], KEY_FRAGMENT, true);
  return (text) => {
    if (!fragments || !mayBeTainted(text, fragments)) return false;
    // ASCII is its own NFKC form, and its only spacing and format characters are controls and space.
    const ascii = ASCII.test(text);
    const normal = (ascii ? text : text.normalize('NFKC'))
      .replace(NUL_ESCAPE, '')
      // eslint-disable-next-line no-control-regex -- the controls are what is removed
      .replace(ascii ? /[\x00-\x20\x7f]/g : /[\p{Cf}\p{Cc}\p{Z}\s]/gu, '')
      .toLowerCase();
    return holdsFragment(normal, fragments);
  };
}
