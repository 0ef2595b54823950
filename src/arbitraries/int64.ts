import fc from 'fast-check';
import { INT64_MAX, INT64_MIN } from '../text/json.ts';

export interface Int64Options {
  /** Inclusive bounds inside int64; default the whole range. */
  min?: bigint;
  max?: bigint;
}

const TWO_POW_53 = 2n ** 53n;

/**
 * Where int64 handling breaks: 0, ±1, around ±2^53 (the last exact double), and the two ends of the
 * range. A server that stores ids in a double or an int32 fails on these long before random values.
 */
export const INT64_EDGES: readonly bigint[] = [
  0n,
  1n,
  -1n,
  TWO_POW_53 - 1n,
  TWO_POW_53,
  TWO_POW_53 + 1n,
  -(TWO_POW_53 - 1n),
  -TWO_POW_53,
  -(TWO_POW_53 + 1n),
  INT64_MAX,
  INT64_MAX - 1n,
  INT64_MIN,
  INT64_MIN + 1n,
];

/** Any int64 (as bigint) in [min, max], biased toward the edges that lose precision. */
export function int64(options: Int64Options = {}): fc.Arbitrary<bigint> {
  const min = options.min ?? INT64_MIN;
  const max = options.max ?? INT64_MAX;
  const edges = INT64_EDGES.filter((edge) => edge >= min && edge <= max);
  const whole = fc.bigInt({ min, max });
  if (edges.length === 0) return whole;
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...edges) }, { weight: 2, arbitrary: whole });
}
