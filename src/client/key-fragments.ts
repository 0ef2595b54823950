/*
 * Runs of a secret's characters looked for in a text: every run of a given size of some texts (the
 * secret, its reverse, an encoding of it), with the character pairs they hold as a cheap first filter.
 */

/** The shortest run of the key's characters treated as the key: shorter ones are left, longer ones never shown. */
export const KEY_FRAGMENT = 8;

/** Letter case folded: ASCII by arithmetic, the rest through toLowerCase. */
export function fold(code: number): number {
  if (code < 0x80) return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
  if (code > 0x10ffff) return code;
  return String.fromCodePoint(code).toLowerCase().codePointAt(0) ?? code;
}

/** Every run of `size` characters of some texts, and the character pairs they hold (a cheap first filter). */
export interface Fragments {
  size: number;
  grams: Set<string>;
  /** Pairs of ASCII characters, by `first * 128 + second`. */
  asciiPairs: Uint8Array;
  /** The indices set in asciiPairs: a union of tables reads these few, not all 16,384 entries of each. */
  asciiPairList: number[];
  /** Other pairs, by `first * PAIR + second`. */
  pairs: Set<number>;
}

export const PAIR = 0x110001;

export function fragmentsOf(texts: readonly string[], wanted: number, folded: boolean): Fragments | undefined {
  const sequences = texts.map((text) => [...text].map((c) => (folded ? fold(c.codePointAt(0)!) : c.codePointAt(0)!)));
  const size = Math.min(wanted, ...sequences.map((s) => s.length));
  if (size < 1) return undefined;
  const grams = new Set<string>();
  const asciiPairs = new Uint8Array(128 * 128);
  const asciiPairList: number[] = [];
  const pairs = new Set<number>();
  for (const sequence of sequences) {
    for (let i = 0; i + size <= sequence.length; i += 1) grams.add(String.fromCodePoint(...sequence.slice(i, i + size)));
    for (let i = 0; i + 1 < sequence.length; i += 1) {
      const [first, second] = [sequence[i]!, sequence[i + 1]!];
      if (first < 128 && second < 128) setPair(asciiPairs, asciiPairList, first * 128 + second);
      else pairs.add(first * PAIR + second);
    }
  }
  return { size, grams, asciiPairs, asciiPairList, pairs };
}

/** Sets `pair` in a table of ASCII pairs, and lists it once. */
export function setPair(table: Uint8Array, list: number[], pair: number): void {
  if (table[pair] === 1) return;
  table[pair] = 1;
  list.push(pair);
}

/**
 * The union of tables of ASCII pairs, from their lists. A redactor is built a few dozen times a run, most
 * of them before V8 has compiled anything: a loop over every entry of every table (16,384 each) was most
 * of a cold build's cost, where the lists hold a few hundred pairs in all.
 */
export function unionOfPairs(lists: ReadonlyArray<readonly number[]>): Uint8Array {
  const union = new Uint8Array(128 * 128);
  for (const list of lists) for (const pair of list) union[pair] = 1;
  return union;
}

/** Marks (in `marks`, by position in `codes`) every run of `codes` that is one of the fragments. Linear. */
export function markFragments(codes: Int32Array, fragments: Fragments, marks: Uint8Array): void {
  const { size, grams, asciiPairs, pairs } = fragments;
  const n = codes.length;
  if (n < size) return;
  if (size === 1) {
    for (let i = 0; i < n; i += 1) if (grams.has(String.fromCodePoint(codes[i]!))) marks[i] = 1;
    return;
  }
  // run: how many known pairs follow one another up to i; a fragment needs size - 1 of them.
  let run = 0;
  for (let i = 0; i + 1 < n; i += 1) {
    const first = codes[i]!;
    const second = codes[i + 1]!;
    const known = first < 128 && second < 128 ? asciiPairs[first * 128 + second] === 1 : pairs.has(first * PAIR + second);
    run = known ? run + 1 : 0;
    if (run < size - 1) continue;
    const start = i + 2 - size;
    if (grams.has(String.fromCodePoint(...codes.subarray(start, start + size)))) marks.fill(1, start, start + size);
  }
}

/**
 * The ring of what a first filter read last (key-filters.ts, key-skeleton.ts): characters and pair masks
 * kept by position modulo RECENT, more than any set's size (KEY_FRAGMENT, three times it for the padded
 * byte digits), so a run long enough for a set is still there to read.
 */
export const RECENT = 32;
/** A position's index in the ring: `position & RING_INDEX`. */
export const RING_INDEX = RECENT - 1;

/** The last `size` characters read, kept in `ring` up to position `end`, as a string. */
export function lastRead(ring: Int32Array, end: number, size: number): string {
  let out = '';
  for (let k = end - size; k < end; k += 1) out += String.fromCharCode(ring[k & RING_INDEX]!);
  return out;
}

/** Whether the last `need` pair masks read, kept in `masks` up to position `end`, all hold `bit`. */
export function allHold(masks: Uint8Array, end: number, need: number, bit: number): boolean {
  for (let k = end - need; k < end; k += 1) if ((masks[k & RING_INDEX]! & bit) === 0) return false;
  return true;
}
