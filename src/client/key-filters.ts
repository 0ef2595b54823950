import { BACKSLASH, escapeAfterBackslashes, referenceAt } from './escaped-text.ts';
import { type Fragments, KEY_FRAGMENT, PAIR, RECENT, RING_INDEX, allHold, fold, fragmentsOf, lastRead } from './key-fragments.ts';

/*
 * The redactor's first filters (redact.ts): each answers in one pass over a text whether the full scan
 * could find anything in it, so most texts (bodies of generated names, headers) skip the scan; and the
 * last check, whether a text reads as the key once normalised (taintCheck).
 */

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
  /** Whether the filter cannot decide (a set of one character, or with pairs past ASCII, or too many sets): every text is scanned. */
  scanAll: boolean;
  sets: Fragments[];
  /**
   * Which sets hold each pair, by `first * 128 + second`: bit k for sets[k], the folded sets' pairs read
   * with letter case folded and the exact sets' as written. A character's pairs in no set end every run.
   */
  foldedMasks: Uint8Array;
  exactMasks: Uint8Array;
  /** For each set, the known pairs in a row it needs (its size less one). */
  needs: Int32Array;
  /** What each character past ASCII met so far folds to when that is ASCII, else -1 (fold allocates a string). */
  folds: Map<number, number>;
  /** How many of `sets` (the first ones) are read with letter case folded; the rest are read as written. */
  foldedCount: number;
  /**
   * The pair masks of the last characters read and, within a run of known pairs, those characters folded
   * and as written, by position modulo RECENT: scratch space of mayHoldFragment, kept with the sets because
   * allocating it for every text cost more than reading a short one. A call reads only what it wrote
   * itself (a run of pairs never reaches back past the call's first character).
   */
  recent: Uint8Array;
  recentFolded: Int32Array;
  recentExact: Int32Array;
}

/** The sets a filter tells apart: one bit each of a Uint8Array mask. */
const MASK_BITS = 8;

export function filterSets(folded: ReadonlyArray<Fragments | undefined>, exact: ReadonlyArray<Fragments | undefined>): FilterSets {
  const present = (set: Fragments | undefined): set is Fragments => set !== undefined;
  const sets = [...folded.filter(present), ...exact.filter(present)];
  const foldedCount = folded.filter(present).length;
  const foldedMasks = new Uint8Array(128 * 128);
  const exactMasks = new Uint8Array(128 * 128);
  sets.slice(0, MASK_BITS).forEach((set, k) => {
    const masks = k < foldedCount ? foldedMasks : exactMasks;
    for (const pair of set.asciiPairList) masks[pair] = masks[pair]! | (1 << k);
  });
  return {
    scanAll: sets.length > MASK_BITS || sets.some((set) => set.size < 2 || set.pairs.size > 0),
    sets,
    foldedMasks,
    exactMasks,
    needs: Int32Array.from(sets, (set) => set.size - 1),
    folds: new Map(),
    foldedCount,
    recent: new Uint8Array(RECENT),
    recentFolded: new Int32Array(RECENT),
    recentExact: new Int32Array(RECENT),
  };
}

/** A character past ASCII, letter case folded, when that is ASCII; else -1. */
function foldedPastAscii(code: number, folds: Map<number, number>): number {
  let folded = folds.get(code);
  if (folded === undefined) {
    const folding = fold(code);
    folded = folding < 0x80 ? folding : -1;
    folds.set(code, folded);
  }
  return folded;
}

/**
 * Whether `texts`, read as one sequence, could hold a fragment at all: false only when they hold no
 * fragment of any set, read as the full scan would decode it. Decoding changes a text only at an
 * escape (a run of backslashes before a whole escape, \u0041, \x41, \n, \r or \t, where `\u"` is none;
 * a percent-encoded character or an HTML character reference), and keptUnits only at a line break: any of
 * those answers true, and the caller reads the text decoded (decodedText). A `%` or `&` that starts no
 * escape (`100%`, `Tom & Jerry`) decodes to itself and is read as any other character: bodies full of
 * generated text hold many, and each used to cost the text the full scan. Other characters decode to
 * themselves, a run of backslashes to backslashes, and a character past ASCII, letter case folded, either
 * to an ASCII one (the Kelvin sign to k) or to one no ASCII-only set holds. This answers in one pass over
 * the string, without the arrays of the full scan (most bodies and headers are such texts, generated names
 * in any script included). Each character costs a lookup of its pairs' masks; the sets are read one by
 * one only once a run of pairs some set holds is long enough, and then the run's last characters are
 * looked up in the set, as the full scan looks them up. A run of known pairs that is no fragment answers
 * false: the digits of a rate-limit header (`1000000000`) beside a key that holds `10` and `00` sent
 * every response's headers to the full scan, which found nothing in them.
 */
export function mayHoldFragment(texts: readonly string[], filter: FilterSets): boolean {
  const { scanAll, sets, foldedMasks, exactMasks, needs, folds, foldedCount, recent, recentFolded, recentExact } = filter;
  if (scanAll) return true;
  // The pairs in a row that some set holds, up to the character read last (the `at`-th of all the texts).
  let run = 0;
  let at = 0;
  // The previous character, exact and folded; -1 for one that no set holds.
  let previous = -1;
  let previousFolded = -1;
  for (const text of texts) {
    // The end of the run of backslashes read as literal ones. Escapes, as the full scan decodes them, lie
    // within one text; the runs of pairs go on from one text into the next.
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
          if (escapeAfterBackslashes(text, literalUntil)) return true;
        }
        lower = code;
      } else if (code >= 0x80) {
        // Read by UTF-16 unit: each half of a surrogate pair folds to itself, as the pair's code point folds
        // to no ASCII character.
        lower = foldedPastAscii(code, folds);
        code = -1;
      } else {
        lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
      }
      const mask =
        (previousFolded >= 0 && lower >= 0 ? foldedMasks[previousFolded * 128 + lower]! : 0) |
        (previous >= 0 && code >= 0 ? exactMasks[previous * 128 + code]! : 0);
      recent[at & RING_INDEX] = mask;
      at += 1;
      if (mask === 0) {
        previous = code;
        previousFolded = lower;
        run = 0;
        continue;
      }
      // Only a run's characters are ever looked up: they are kept from its first pair on, the character
      // before that pair included. Most characters of a text begin no run and cost no write.
      if (run === 0) {
        recentFolded[(at - 2) & RING_INDEX] = previousFolded;
        recentExact[(at - 2) & RING_INDEX] = previous;
      }
      recentFolded[(at - 1) & RING_INDEX] = lower;
      recentExact[(at - 1) & RING_INDEX] = code;
      previous = code;
      previousFolded = lower;
      run += 1;
      for (let k = 0; k < sets.length; k += 1) {
        const need = needs[k]!;
        if (run < need || !allHold(recent, at, need, 1 << k)) continue;
        if (sets[k]!.grams.has(lastRead(k < foldedCount ? recentFolded : recentExact, at, need + 1))) return true;
      }
    }
  }
  return false;
}

/**
 * What a character past ASCII becomes in taintCheck's normal form, from its code point alone: its NFKC
 * form without the characters taintCheck removes, lower-cased. Cached by the caller (`images`): a text
 * holds few distinct characters past ASCII.
 */
function imageOf(code: number, images: Map<number, string>): string {
  let image = images.get(code);
  if (image === undefined) {
    image = String.fromCodePoint(code).normalize('NFKC').replace(REMOVED, '').toLowerCase();
    images.set(code, image);
  }
  return image;
}

/**
 * Whether a text could read as the key once normalised as taintCheck does (NFKC, controls, spacing and
 * format characters removed, letter case folded): false only when no run of known pairs is long enough in
 * it, read character by character. A character past ASCII is read as its own normal form (`imageOf`):
 * NFKC decomposes each character alone, and what it composes again (a letter with the marks after it) is
 * past ASCII, so the text's normal form holds no ASCII character side by side that these images do not.
 * Texts whose NUL escapes taintCheck removes answer true: a backslash before u or x, a `%` before 0, and
 * either of them beside (or made of) a character past ASCII. Most bodies with names in other scripts are
 * read so, without normalising them whole.
 */
function mayBeTainted(text: string, fragments: Fragments, images: Map<number, string>): boolean {
  const { size, asciiPairs, pairs } = fragments;
  if (size < 2 || pairs.size > 0) return true;
  let run = 0;
  let previous = -1;
  // The end of the run of backslashes already measured: a run is measured once, at its first.
  let measured = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code === BACKSLASH) {
        if (i >= measured) {
          measured = i;
          while (text.charCodeAt(measured) === BACKSLASH) measured += 1;
          const after = text.charCodeAt(measured);
          if (after >= 0x80 || (after | 0x20) === 0x75 || (after | 0x20) === 0x78) return true;
        }
      } else if (code === 0x25) {
        const after = text.charCodeAt(i + 1);
        if (after >= 0x80 || after === 0x30) return true;
      }
      if (code <= 0x20 || code === 0x7f) continue;
      const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
      run = previous >= 0 && asciiPairs[previous * 128 + lower] === 1 ? run + 1 : 0;
      if (run >= size - 1) return true;
      previous = lower;
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i += 1;
    const image = imageOf(point, images);
    for (let k = 0; k < image.length; k += 1) {
      const char = image.charCodeAt(k);
      if (char === BACKSLASH || char === 0x25) return true;
      if (char >= 0x80) {
        previous = -1;
        run = 0;
        continue;
      }
      run = previous >= 0 && asciiPairs[previous * 128 + char] === 1 ? run + 1 : 0;
      if (run >= size - 1) return true;
      previous = char;
    }
  }
  return false;
}

// eslint-disable-next-line no-control-regex -- ASCII is every code point below 0x80, controls included
const ASCII = /^[\x00-\x7f]*$/;
/**
 * NUL written as an escape (UTF-16 spelt byte by byte). The lookbehind makes a match start only at the
 * first backslash of a run, so a long run is crossed once, not once per backslash.
 */
const NUL_ESCAPE = /(?<!\\)\\+(?:u0000|x00)|%00/gi;
/** What taintCheck removes from a text past ASCII once normalised: format characters, controls, spacing. */
const REMOVED = /[\p{Cf}\p{Cc}\p{Z}\s]/gu;

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
  const images = new Map<number, string>();
  return (text) => {
    if (!fragments || !mayBeTainted(text, fragments, images)) return false;
    // ASCII is its own NFKC form, and its only spacing and format characters are controls and space.
    const ascii = ASCII.test(text);
    const normal = (ascii ? text : text.normalize('NFKC'))
      .replace(NUL_ESCAPE, '')
      // eslint-disable-next-line no-control-regex -- the controls are what is removed
      .replace(ascii ? /[\x00-\x20\x7f]/g : REMOVED, '')
      .toLowerCase();
    return holdsFragment(normal, fragments);
  };
}
