import type { Units } from './escaped-text.ts';
import { base32Cores, byteDigits } from './key-encodings.ts';
import { type Fragments, KEY_FRAGMENT, RECENT, RING_INDEX, allHold, fragmentsOf, lastRead } from './key-fragments.ts';
import { PIECE, PIECES_REVEALED, type PieceSet, cover, markPieces, pieceSet } from './key-pieces.ts';

export { PIECE };

/*
 * The key matched by its skeleton: its letters and digits alone, read in the text's letters and digits
 * alone (`ak_main.1234567.890abcd`, the key letter by letter with dashes). The text's skeleton keeps,
 * for each of its characters, the decoded unit it came from, so the span removed is the right one in
 * the original text. Beside whole runs, a text that holds several pieces of the key in any order (the
 * key cut in 7-character pieces, each reversed) has each piece removed.
 */

/** What a character is in a skeleton when it is no ASCII letter or digit: left out, or a letter or digit of no key. */
const SKIP = -2;
const BREAK = -1;
/** A BREAK in the skeleton sequence: a code no set holds, so it ends every run. */
const BREAK_CODE = 0x20;

/** Hex, base32, and the byte values in decimal or octal, are read in as many characters as KEY_FRAGMENT bytes take. */
const ENCODED_FRAGMENT = { base32: Math.ceil((8 * KEY_FRAGMENT) / 5), digits: 2 * KEY_FRAGMENT, padded: 3 * KEY_FRAGMENT };

export interface Skeleton {
  /** The classes of the code points past ASCII met so far (see classOf). */
  classes: Map<number, number>;
  sets: Fragments[];
  pieces: PieceSet | undefined;
  /** The fewest characters a text needs for any of the sets to match. */
  shortest: number;
  /**
   * Which sets hold each pair (bit k for sets[k], PIECES_BIT for the pieces), by `first * 128 + second`:
   * one lookup a character tells the filter which runs go on, and a pair in none ends them all at once.
   */
  masks: Uint8Array;
  /** For each set, the known pairs in a row it needs (its size less one). */
  needs: Int32Array;
  /**
   * The last characters and pair masks skeletonMayHold read, by count modulo RECENT: its scratch space, kept
   * here because allocating it for every text cost more than reading a short one. A call reads only what
   * it wrote itself: a run of pairs never reaches back past the call's first character.
   */
  recent: Int32Array;
  recentMasks: Uint8Array;
}

/** The bit of Skeleton.masks for the pieces: the sets take the bits below it. */
const PIECES_BIT = 0x80;

function asciiClass(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a ? lower : SKIP;
}

/** asciiClass of every ASCII code, read by the filter without a call. */
const ASCII_CLASS = Int16Array.from({ length: 0x80 }, (_, code) => asciiClass(code));

/**
 * A code point's class: ASCII by arithmetic; past ASCII, its NFKC form lower-cased when that is one ASCII
 * letter or digit (fullwidth and mathematical letters, the Kelvin sign), otherwise BREAK for another
 * letter or digit (é, Cyrillic) and SKIP for anything else (spacing, punctuation, format characters,
 * combining marks). Cached per redactor (`classes`): a text holds few distinct characters past ASCII.
 * One function for every redactor, its cache passed in: a closure per redactor made the scans that call
 * it see a new call target with each key, and V8 compiled them again for each.
 */
function classOf(code: number, classes: Map<number, number>): number {
  if (code < 0x80) return asciiClass(code);
  const known = classes.get(code);
  if (known !== undefined) return known;
  let found = SKIP;
  if (code <= 0x10ffff) {
    const normal = String.fromCodePoint(code).normalize('NFKC').toLowerCase();
    const first = normal.codePointAt(0) ?? 0;
    const rest = normal.slice(first > 0xffff ? 2 : 1);
    if (first < 0x80 && asciiClass(first) >= 0 && /^\p{M}*$/u.test(rest)) found = asciiClass(first);
    else if (/[\p{L}\p{N}]/u.test(normal)) found = BREAK;
  }
  classes.set(code, found);
  return found;
}

function skeletonOf(text: string, classes: Map<number, number>): string {
  let out = '';
  for (const char of text) {
    const code = classOf(char.codePointAt(0)!, classes);
    if (code >= 0) out += String.fromCharCode(code);
  }
  return out;
}

const reverse = (text: string) => [...text].reverse().join('');
const rot13 = (text: string) => text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 0x61 + 13) % 26) + 0x61));

/**
 * The skeleton sets of a secret: its letters and digits forwards, reversed and in rot13, and its bytes
 * in hex (quoted-printable and `\x` with the escapes' marks removed), base32, decimal and octal. None for
 * a secret of fewer than KEY_FRAGMENT letters and digits: the ordinary scan alone reads it.
 */
export function createSkeleton(secret: string): Skeleton | undefined {
  const classes = new Map<number, number>();
  const skeleton = skeletonOf(secret, classes);
  if (skeleton.length < KEY_FRAGMENT) return undefined;
  const decimal = byteDigits(secret, 10);
  const octal = byteDigits(secret, 8);
  // Sets of one size are one set: the filter reads each set's pairs for every letter and digit.
  // At most seven sets: each takes a bit of Skeleton.masks below PIECES_BIT.
  const sets = [
    fragmentsOf([skeleton, reverse(skeleton), rot13(skeleton)], KEY_FRAGMENT, true),
    fragmentsOf(base32Cores(secret), ENCODED_FRAGMENT.base32, true),
    fragmentsOf([Buffer.from(secret).toString('hex'), decimal.plain, octal.plain], ENCODED_FRAGMENT.digits, true),
    fragmentsOf([decimal.padded, octal.padded], ENCODED_FRAGMENT.padded, true),
  ].filter((set): set is Fragments => set !== undefined && set.size >= 2);
  const pieces = pieceSet(skeleton);
  const shortest = Math.min(pieces ? PIECES_REVEALED : Number.POSITIVE_INFINITY, ...sets.map((set) => set.size));
  const masks = new Uint8Array(128 * 128);
  sets.forEach((set, k) => {
    for (const pair of set.asciiPairList) masks[pair] = masks[pair]! | (1 << k);
  });
  for (const pair of pieces?.pairList ?? []) masks[pair] = masks[pair]! | PIECES_BIT;
  const needs = Int32Array.from(sets, (set) => set.size - 1);
  return { classes, sets, pieces, shortest, masks, needs, recent: new Int32Array(RECENT), recentMasks: new Uint8Array(RECENT) };
}

/**
 * Whether the texts, read one after another, hold a run of any set or enough pieces of the key: exactly
 * what the full scan would find, read without its arrays. It reads the texts as written; the caller
 * hands it a text with an escape or a line break decoded (decodedText), or sends it to the full scan, so
 * the characters are the decoded ones. A run of known pairs is checked against the set only once it is
 * long enough: each character costs one lookup of its pair's mask while the run of pairs some set holds
 * is shorter than any set needs, which is most of a text.
 */
export function skeletonMayHold(texts: readonly string[], skeleton: Skeleton): boolean {
  const { classes, sets, pieces, masks, needs, recent, recentMasks } = skeleton;
  // The pairs in a row that some set or the pieces hold, up to the last character read.
  let run = 0;
  let count = 0;
  let previous = -1;
  let covered: Uint8Array | undefined;
  let revealed = 0;
  for (const text of texts) {
    for (let i = 0; i < text.length; i += 1) {
      let code = text.charCodeAt(i);
      let char: number;
      if (code < 0x80) char = ASCII_CLASS[code]!;
      else {
        if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
          const low = text.charCodeAt(i + 1);
          if (low >= 0xdc00 && low <= 0xdfff) {
            code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
            i += 1;
          }
        }
        char = classOf(code, classes);
      }
      if (char === SKIP) continue;
      if (char === BREAK) {
        previous = -1;
        continue;
      }
      const mask = previous >= 0 ? masks[previous * 128 + char]! : 0;
      recent[count & RING_INDEX] = char;
      recentMasks[count & RING_INDEX] = mask;
      count += 1;
      previous = char;
      if (mask === 0) {
        run = 0;
        continue;
      }
      run += 1;
      for (let k = 0; k < sets.length; k += 1) {
        const need = needs[k]!;
        if (run >= need && allHold(recentMasks, count, need, 1 << k) && sets[k]!.grams.has(lastRead(recent, count, need + 1))) return true;
      }
      if (!pieces || run < PIECE - 1 || !allHold(recentMasks, count, PIECE - 1, PIECES_BIT)) continue;
      const at = pieces.grams.get(lastRead(recent, count, PIECE));
      if (at === undefined) continue;
      covered ??= new Uint8Array(pieces.length);
      revealed += cover(covered, at);
      if (revealed >= PIECES_REVEALED) return true;
    }
  }
  return false;
}

/** What the skeleton scan found: units to remove, and the texts to withhold whole. */
export interface SkeletonMarks {
  marks: Uint8Array;
  /** Texts (by piece) where a run was spelt with spacing, controls or characters past ASCII: a disguised copy. */
  withheld: Set<number>;
}

/**
 * Marks (in `found`) every run of the sequence that is one of the set's, and (in `inside`) the gaps
 * within each. Linear: a run is looked up only once its pairs are all known, as in markFragments.
 */
function markRuns(sequence: Int32Array, set: Fragments, found: Uint8Array, inside: Uint8Array): void {
  const { size, grams, asciiPairs } = set;
  let run = 0;
  for (let i = 0; i + 1 < sequence.length; i += 1) {
    run = asciiPairs[sequence[i]! * 128 + sequence[i + 1]!] === 1 ? run + 1 : 0;
    if (run < size - 1) continue;
    const start = i + 2 - size;
    if (!grams.has(String.fromCharCode(...sequence.subarray(start, start + size)))) continue;
    found.fill(1, start, start + size);
    inside.fill(1, start, start + size - 1);
  }
}

/** Whether a unit in a matched span shows a disguise: spacing, a control, or a character past ASCII. */
const disguising = (code: number) => code < 0x21 || code > 0x7e;

/**
 * The skeleton scan over decoded units: units already marked are left out of the skeleton (what lay
 * around a removed fragment is read as one), each run of a set found spans from its first unit to its
 * last, separators included. Linear: each unit is read a bounded number of times.
 */
export function markSkeleton(units: Units, marked: Uint8Array, skeleton: Skeleton): SkeletonMarks {
  const { count, codes, pieces: pieceOf } = units;
  const sequence = new Int32Array(count);
  const at = new Int32Array(count);
  let size = 0;
  for (let i = 0; i < count; i += 1) {
    if (marked[i]) continue;
    const char = classOf(codes[i]!, skeleton.classes);
    if (char === SKIP) continue;
    sequence[size] = char === BREAK ? BREAK_CODE : char;
    at[size++] = i;
  }
  const view = sequence.subarray(0, size);
  const found = new Uint8Array(size);
  // inside[k]: skeleton characters k and k + 1 lie in one run found, so what separates them is part of the copy.
  const inside = new Uint8Array(size);
  for (const set of skeleton.sets) markRuns(view, set, found, inside);
  const withheld = new Set<number>();
  const marks = new Uint8Array(count);
  const spans = (each: (first: number, last: number) => void) => {
    for (let i = 0; i < size; i += 1) {
      if (!found[i]) continue;
      let end = i;
      while (end + 1 < size && found[end + 1]) end += 1;
      each(at[i]!, at[end]!);
      i = end;
    }
  };
  for (let k = 0; k < size; k += 1) {
    // A letter past ASCII that reads as one of the key's (fullwidth, mathematical) is a disguise itself.
    if (found[k] && codes[at[k]!]! > 0x7e) withheld.add(pieceOf[at[k]!]!);
    if (!inside[k]) continue;
    for (let u = at[k]! + 1; u < at[k + 1]!; u += 1) if (!marked[u] && disguising(codes[u]!)) withheld.add(pieceOf[u]!);
  }
  if (skeleton.pieces) markPieces(view, skeleton.pieces, found);
  spans((first, last) => marks.fill(1, first, last + 1));
  return { marks, withheld };
}
