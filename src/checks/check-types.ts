import type { Contract } from '../contract/index.ts';

/** Everything a check may look at: one response, as received, plus the spec and the time. */
export interface CheckContext {
  /** listPets | createPet | getPet, or undefined for a path outside the interface. */
  operationId: string | undefined;
  method: string;
  url: string;
  status: number;
  /** Lower-case names; a duplicated header arrives joined with ', '. */
  headers: Readonly<Record<string, string>>;
  text: string;
  /** parseJson(text) when the body parsed, else undefined. */
  body: unknown;
  isJson: boolean;
  /** Why a non-empty body is not JSON (not UTF-8 at byte N, a duplicate key, too deep, too large). */
  jsonError?: string;
  contract: Contract;
  /** Epoch milliseconds when the response arrived (the injectable clock, so tests are deterministic). */
  now: number;
  /**
   * Set when this response answers a request sent a second time, on a new connection, because the
   * connection it went on first was closed without an answer: why it failed, and how long after the
   * client's previous answer it was sent (undefined: there was none), and how many such drops and
   * answers this client has seen, this one included.
   */
  droppedBefore?: { error: string; idleMs: number | undefined; drops: number; answered: number };
  /**
   * Set when, since the previous response, a pooled connection received bytes while no request was in
   * flight on it (a response nobody asked for): the start of them, and how many such arrivals.
   */
  strayBefore?: { bytes: string; count: number };
  /**
   * The client's redactor: target text a check quotes goes through it whole, before it is cut (a cut
   * first could leave a piece of the key too short to be recognised). Absent: the text is quoted as is.
   */
  redact?: (text: string) => string;
  /** Exchange the findings point at; 0 when the caller does not record exchanges. */
  exchangeSeq?: number;
}

/** A requirement broken by an always-on check, seen on one exchange. */
export interface Finding {
  requirementId: string;
  check: string;
  expected: string;
  actual: string;
  exchangeSeq: number;
}

/** What a check reports when the response breaks its requirement: two short human phrases. */
export interface CheckViolation {
  expected: string;
  actual: string;
}

/**
 * A small named rule run on every response. It returns undefined when it does not apply or holds, and
 * never throws: a check sees hostile responses, and a crash there would be blamed on the wrong party.
 */
export interface Check {
  name: string;
  requirementId: string;
  run(ctx: CheckContext): CheckViolation | undefined;
}
