/**
 * What a redactor gave for texts it was handed before. Redaction is a pure function of its input, so a
 * text that comes again (a run sends the same headers, lists and curl lines over and over: about two
 * thirds of the characters a worker redacts are repeats) gets the very answer the scan gave it, at the
 * cost of a lookup. Bounded by characters kept: past `maxChars`, the oldest entries go first.
 */
export type Memo<T> = (key: string, compute: () => T) => T;

export function createMemo<T>(maxChars: number, sizeOf: (value: T, key: string) => number): Memo<T> {
  const entries = new Map<string, T>();
  let chars = 0;
  return (key, compute) => {
    const known = entries.get(key);
    if (known !== undefined) return known;
    const value = compute();
    const size = key.length + sizeOf(value, key);
    if (size > maxChars) return value;
    entries.set(key, value);
    chars += size;
    for (const [oldKey, oldValue] of entries) {
      if (chars <= maxChars) break;
      entries.delete(oldKey);
      chars -= oldKey.length + sizeOf(oldValue, oldKey);
    }
    return value;
  };
}

/**
 * One key for a list of texts: their lengths, then the texts, so that no two lists share a key (["ab"]
 * and ["a", "b"] differ by their lengths).
 */
export function listKey(texts: readonly string[]): string {
  let lengths = '';
  let joined = '';
  for (const text of texts) {
    lengths += `${text.length},`;
    joined += text;
  }
  return `${lengths}|${joined}`;
}
