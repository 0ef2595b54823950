import type { Catalog } from '../catalog/catalog.ts';
import { HarnessError } from '../errors.ts';

/**
 * The catalog's ids, compact enough for one line: "AUTH-001…006, RATE-001…009, …". Ids of a prefix
 * that are not consecutive are listed as they are.
 */
export function describeKnownIds(catalog: Catalog): string {
  const byPrefix = new Map<string, number[]>();
  for (const { id } of catalog.requirements) {
    const match = /^(.*)-(\d+)$/.exec(id);
    if (!match) continue;
    const numbers = byPrefix.get(match[1] as string) ?? [];
    numbers.push(Number(match[2]));
    byPrefix.set(match[1] as string, numbers);
  }
  const pad = (n: number) => String(n).padStart(3, '0');
  return [...byPrefix]
    .map(([prefix, numbers]) => {
      const sorted = [...numbers].sort((a, b) => a - b);
      const first = sorted[0] as number;
      const last = sorted[sorted.length - 1] as number;
      const consecutive = last - first === sorted.length - 1;
      if (sorted.length === 1) return `${prefix}-${pad(first)}`;
      return consecutive ? `${prefix}-${pad(first)}…${pad(last)}` : sorted.map((n) => `${prefix}-${pad(n)}`).join(', ');
    })
    .join(', ');
}

/**
 * A deviation or baseline entry for an id the catalog does not have is a typo that would otherwise run
 * to a verdict with a note nobody reads: a configuration error naming the ids there are.
 */
export function checkKnownIds(ids: readonly string[], catalog: Catalog, flag: string): void {
  const unknown = ids.filter((id) => !catalog.has(id));
  if (unknown.length === 0) return;
  throw new HarnessError('ERR_CONFIG', `${flag} names no requirement of the catalog: ${unknown.join(', ')} (the ids: ${describeKnownIds(catalog)})`);
}
