import { setPair } from './key-fragments.ts';

/*
 * Pieces of a key in any order: the key's skeleton (its letters and digits) cut in runs of PIECE
 * characters, forwards or reversed, and how much of the key a text's pieces show together.
 */

const reverse = (text: string) => [...text].reverse().join('');

/** The shortest piece of the key counted by the pieces rule. */
export const PIECE = 5;
/**
 * How many of the key's characters the pieces of one text must show before they are removed: what two
 * pieces of 5 show. One piece (5 to 7 characters) is left, since a body of many numbers or words holds
 * one now and then and two disjoint ones almost never (docs/explanation/reliability.md has the figures); the rule
 * for runs of 8 already lets at most 7 characters in a row through.
 */
export const PIECES_REVEALED = 2 * PIECE;

/**
 * A piece of digits alone is no piece: numbers fill answers (ids, counts, times, the rate-limit headers
 * read side by side), and two 5-digit runs of a key's digits turn up in them by chance. A key's
 * "0123456789" was found in Remaining 12345 and Reset 1795856789, and the log lost the evidence of a
 * valid answer. Runs of 8 still catch the key's digits in a row.
 */
const ALL_DIGITS = /^[0-9]+$/;

export interface PieceSet {
  /** Each 5-character piece of the key's skeleton that holds a letter, forwards or reversed, and where it starts in the forward skeleton. */
  grams: Map<string, number>;
  /** Pairs of the key's skeleton, forwards or reversed (a first filter, by `first * 128 + second`). */
  pairs: Uint8Array;
  /** The indices set in pairs. */
  pairList: number[];
  length: number;
}

/** The pieces of a key skeleton long enough for the rule (shorter ones are read by runs alone). */
export function pieceSet(skeleton: string): PieceSet | undefined {
  if (skeleton.length < PIECES_REVEALED) return undefined;
  const grams = new Map<string, number>();
  const pairs = new Uint8Array(128 * 128);
  const pairList: number[] = [];
  const length = skeleton.length;
  for (let at = 0; at + PIECE <= length; at += 1) {
    const gram = skeleton.slice(at, at + PIECE);
    if (ALL_DIGITS.test(gram)) continue;
    if (!grams.has(gram)) grams.set(gram, at);
    const reversed = reverse(gram);
    if (!grams.has(reversed)) grams.set(reversed, at);
  }
  for (let at = 0; at + 1 < length; at += 1) {
    const [first, second] = [skeleton.charCodeAt(at), skeleton.charCodeAt(at + 1)];
    setPair(pairs, pairList, first * 128 + second);
    setPair(pairs, pairList, second * 128 + first);
  }
  return { grams, pairs, pairList, length };
}

export /** Marks the key's characters from `at` as shown; how many were not before. */
function cover(covered: Uint8Array, at: number): number {
  let added = 0;
  for (let k = at; k < at + PIECE; k += 1) {
    added += 1 - covered[k]!;
    covered[k] = 1;
  }
  return added;
}

export /** Marks (in `found`) each maximal run of the skeleton made of pieces of the key, when together they show enough of it. */
function markPieces(sequence: Int32Array, pieces: PieceSet, found: Uint8Array): void {
  const covered = new Uint8Array(pieces.length);
  const hits = new Uint8Array(sequence.length);
  let revealed = 0;
  let run = 0;
  for (let i = 0; i + 1 < sequence.length; i += 1) {
    const pair = sequence[i]! * 128 + sequence[i + 1]!;
    run = pieces.pairs[pair] === 1 ? run + 1 : 0;
    if (run < PIECE - 1) continue;
    const start = i + 2 - PIECE;
    const at = pieces.grams.get(String.fromCharCode(...sequence.subarray(start, start + PIECE)));
    if (at === undefined) continue;
    hits.fill(1, start, start + PIECE);
    revealed += cover(covered, at);
  }
  if (revealed >= PIECES_REVEALED) for (let i = 0; i < hits.length; i += 1) found[i] = found[i]! | hits[i]!;
}
