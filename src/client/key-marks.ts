import { type Units, isSpacing } from './escaped-text.ts';
import { type Fragments, markFragments } from './key-fragments.ts';

/* How the full scan of redact.ts marks the units of a text to remove, and which units it reads. */

/** Marks of every fragment set over `codes` (the units `kept`), by unit. */
export function markAll(codes: Int32Array, sets: ReadonlyArray<Fragments | undefined>, kept: Int32Array, count: number): Uint8Array {
  const compact = new Uint8Array(codes.length);
  for (const set of sets) if (set) markFragments(codes, set, compact);
  const marks = new Uint8Array(count);
  for (let i = 0; i < kept.length; i += 1) if (compact[i]) marks[kept[i]!] = 1;
  return marks;
}

/** Extends each marked run of at least `least` units forward over up to `budget(run)` units `fits` accepts. */
export function runOn(units: Units, marks: Uint8Array, least: number, budget: (run: number) => number, fits: (code: number) => boolean): void {
  const { count, codes, pieces } = units;
  let i = 0;
  while (i < count) {
    if (!marks[i]) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < count && marks[end]) end += 1;
    if (end - i >= least) {
      let left = budget(end - i);
      while (left > 0 && end < count && !marks[end] && pieces[end] === pieces[end - 1] && fits(codes[end]!)) {
        marks[end] = 1;
        end += 1;
        left -= 1;
      }
      while (end < count && marks[end]) end += 1;
    }
    i = end;
  }
}

/**
 * Which units the fragments are looked for in: all but line breaks and the spacing around them, so a key
 * written across lines (or across texts) is still one key. Spacing within a line separates words.
 */
export function keptUnits(units: Units): Int32Array {
  const { count, codes } = units;
  const kept = new Int32Array(count);
  let size = 0;
  let i = 0;
  while (i < count) {
    if (!isSpacing(codes[i]!)) {
      kept[size++] = i++;
      continue;
    }
    let end = i;
    let lineBreak = false;
    while (end < count && isSpacing(codes[end]!)) {
      if (codes[end] === 0x0a || codes[end] === 0x0d) lineBreak = true;
      end += 1;
    }
    if (!lineBreak) for (let k = i; k < end; k += 1) kept[size++] = k;
    i = end;
  }
  return kept.subarray(0, size);
}
