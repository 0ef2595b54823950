/**
 * How a body is invalid; each kind is its own requirement: a missing field (STA-005), a field holding a
 * wrong value (STA-006), a body that is not an object (STA-007), an int64 field out of range (INT-002).
 */
export type InvalidationKind = 'missing-field' | 'wrong-value' | 'not-object' | 'out-of-range';

/** One invalid request body, named after the way it differs from a valid one. */
export interface InvalidCase {
  /** e.g. "categoryId as float", "missing name", "body as array". */
  readonly name: string;
  readonly kind: InvalidationKind;
  /** The field made invalid, when one is. */
  readonly field: string | undefined;
  /** The body as a value (bigint exact). */
  readonly body: unknown;
  /** JSON text to send verbatim instead of serialising `body`, where serialising could blur it. */
  readonly rawBody: string | undefined;
  /** The invalidation with its value, e.g. `categoryId as float (1.5)`: a failure reads "createPet accepted <label>". */
  readonly label: string;
}
