/**
 * The names of a list closest to one a user mistyped: those within a few edits of it or sharing its
 * first word, fewest edits first, at most `max`.
 */
export function nearestNames(wanted: string, names: readonly string[], max = 3): string[] {
  const head = wanted.split('-')[0] ?? wanted;
  const near = Math.max(2, Math.floor(wanted.length / 3));
  const scored = names
    .map((name) => ({ name, distance: editDistance(wanted, name), sameHead: head.length > 2 && name.startsWith(`${head}-`) }))
    .filter(({ distance, sameHead }) => distance <= near || sameHead)
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return scored.slice(0, max).map(({ name }) => name);
}

/** Levenshtein distance: insertions, deletions and substitutions of one character each cost one. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** One line for an unknown name: what was given, what it may have meant, and where the full list is. */
export function unknownNameMessage(kind: 'fault' | 'variant', wanted: string, names: readonly string[]): string {
  const near = nearestNames(wanted, names);
  const guess = near.length > 0 ? `; did you mean ${near.join(', ')}?` : '';
  return `unknown ${kind} "${wanted}"${guess} (${names.length} ${kind}s are known: \`animal-store-conformance help ${kind}s\` lists them)`;
}
