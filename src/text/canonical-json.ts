/**
 * One canonical text for a JSON value, keys sorted at every level: equal values give equal texts, and the
 * exchange log's hash chain (report/har.ts) hashes it. It is exactly what `JSON.stringify` writes when a
 * replacer gives every plain object again with its keys sorted (the way it was first written), without
 * the replacer: that ran V8's slow path and built a sorted copy of every object, and hashing a run's log
 * of thousands of entries came last in every run, after its final request.
 *
 * Written as `JSON.stringify` would: `toJSON` is called first; a property whose value is undefined, a
 * function or a symbol is left out, and such an item of an array is `null`; keys that are array indices
 * come first in numeric order, as JavaScript orders them in any object; a bigint throws.
 */
export function canonicalJson(value: unknown): string {
  return write(value, '') as string;
}

function write(value: unknown, key: string): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(key);
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) out += `${i === 0 ? '' : ','}${write(value[i], String(i)) ?? 'null'}`;
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const name of sortedKeys(value)) {
    const text = write((value as Record<string, unknown>)[name], name);
    if (text === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(name)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

/** The largest array index, 2^32 − 2: a key that reads as one up to it comes before the others. */
const MAX_INDEX = 4_294_967_294;

const isIndex = (name: string) => /^(?:0|[1-9]\d{0,9})$/.test(name) && Number(name) <= MAX_INDEX;

function sortedKeys(value: object): string[] {
  const names = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const indices = names.filter(isIndex);
  if (indices.length === 0) return names;
  return [...indices.sort((a, b) => Number(a) - Number(b)), ...names.filter((name) => !isIndex(name))];
}

/**
 * A plain copy of a JSON value with every object's keys set in the order canonicalJson writes them, so that
 * JSON.stringify of the copy is its canonical text. For the few objects a writer takes as they come.
 */
export function sortedCopy(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.parse(canonicalJson(value)) as unknown;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortedCopy);
  const out: Record<string, unknown> = {};
  for (const name of sortedKeys(value)) {
    // Defined, not assigned: an own `__proto__` key (JSON.parse makes one) stays a key, as canonicalJson writes it.
    Object.defineProperty(out, name, { value: sortedCopy((value as Record<string, unknown>)[name]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
