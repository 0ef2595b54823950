import fc from 'fast-check';

export interface TaggedNameOptions {
  /** Prefix of every name, so pets created on a shared store are recognisable: `${tag} ${generated}`. */
  tag: string;
  /** Upper bound of the whole name in UTF-16 code units (the strictest way a server may count). */
  maxLength?: number;
  /** Upper bound of the generated part, in code units. */
  maxGeneratedLength?: number;
  /** Lower bound of the generated part, in units (each one code unit or more); default 0. */
  minGeneratedLength?: number;
}

/**
 * Length bounds for name are not shown, so a server may bound names; 50 is the shortest common bound
 * the suite keeps every name it needs accepted within. Longer ones are sent only where 400 is accepted.
 */
export const DEFAULT_NAME_LIMIT = 50;
const DEFAULT_GENERATED_LIMIT = 40;

/** Characters that break naive JSON writers, SQL, HTML or byte counting. */
const TRICKY_UNITS = [' ', '"', "'", '\\', '/', '<', '>', '&', '%', '\u00a0', 'é', 'e\u0301', 'ß', '中', 'Ω', '😀', '🐶', '👩‍👩‍👧', '🇫🇷', '\u{1d11e}'];

/**
 * One unit of a name: a printable grapheme (fast-check's 'grapheme' never yields lone surrogates or
 * control characters, which cannot round-trip or which a valid server may reasonably refuse), ASCII,
 * or a character known to trouble servers.
 */
const nameUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom(...TRICKY_UNITS) },
);

/** A name `${tag} ${generated}` whose whole length stays within maxLength code units. */
export function taggedName(options: TaggedNameOptions): fc.Arbitrary<string> {
  const room = Math.min(options.maxGeneratedLength ?? DEFAULT_GENERATED_LIMIT, (options.maxLength ?? DEFAULT_NAME_LIMIT) - options.tag.length - 1);
  const min = options.minGeneratedLength ?? 0;
  if (room < min) throw new RangeError(`the name tag "${options.tag}" leaves no room for ${min} characters within ${options.maxLength ?? DEFAULT_NAME_LIMIT}`);
  // Units are kept while they fit, so a long emoji sequence never makes the name too long.
  return fc.array(nameUnit, { minLength: min, maxLength: room }).map((units) => `${options.tag} ${fitUnits(units, room)}`);
}

function fitUnits(units: readonly string[], room: number): string {
  let out = '';
  for (const unit of units) {
    if (out.length + unit.length > room) break;
    out += unit;
  }
  return out;
}
