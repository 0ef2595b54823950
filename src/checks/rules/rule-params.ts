/** Each rule's params: plain JSON, so the report can carry them (ids as decimal strings). */
export interface RuleParams {
  /** The body is JSON and valid against `#/components/schemas/<schema>`. */
  'json-schema': { schema: 'Pet' | 'Pets' | 'Error' };
  /** The status is one of `allowed`. */
  'status-in': { allowed: number[] };
  /** The status is below `limit` (e.g. never a 5xx). */
  'status-below': { limit: number };
  /** Each header is present. */
  'headers-present': { names: string[] };
  /** The header's media type (parameters dropped, lower-cased) is `value`. */
  'media-type': { name: string; value: string };
  /**
   * The body is a JSON array of at least `min` / at most `max` items; with `countFrom`, of at least as
   * many as the list that exchange answered held (up to `max`), counted from the log.
   */
  'list-length': { min?: number; max?: number; countFrom?: number };
  /**
   * The list holds the animal at least `min` / at most `max` times; its id is read from the exchange
   * `idFrom` (the createPet that added it), never stated in the report.
   */
  'list-count-of-id': { idFrom: number; min?: number; max?: number };
  /**
   * CON-003: a complete list (fewer items than its limit) holds every pet the run's key added with the
   * list's `status=` filter (none: those stored without a status) whose createPet was answered before
   * the list was asked for. The pets are the log's, never stated in the report.
   */
  'added-pets-listed': Record<string, never>;
  /** Every item of the list has `status` equal to `status`. */
  'list-only-status': { status: string };
  /** The body's `field` is a string that is not blank. */
  'field-non-empty': { field: string };
  /** The body's `status` field is the number of the HTTP status. */
  'error-status-is-http-status': Record<string, never>;
  /** The response Pet's name, categoryId (and status, when sent) are those of the request body. */
  'pet-echoes-sent': { fields: Array<'name' | 'categoryId' | 'status'> };
  /** The response Pet's id is not the `id` the request body sent. */
  'pet-id-not-sent': Record<string, never>;
  /**
   * The body is the Pet with these fields (categoryId as a decimal string); a field not given is not
   * compared. Its id, when compared, is read from the exchange `idFrom`. `statusIfAnswered`: the status
   * is compared only when the body has one.
   */
  'pet-is': { idFrom?: number; name?: string; categoryId?: string; status?: string; statusIfAnswered?: true };
  /** The body's id is an integer within int64. */
  'pet-id-int64': Record<string, never>;
  /**
   * The exchanges (one request sent in different ways) share their status, media type, kind of body,
   * rate-limit headers' presence and, where `sentFrom` names the exchange whose request body sent a pet
   * (one per exchange: a createPet, itself), which of its fields came back as sent.
   */
  'answered-alike': { sentFrom?: number[] };
  /** The Pets the exchanges answered have distinct ids (each an integer). */
  'pet-ids-distinct': Record<string, never>;
  /** A 200 to getPet is the animal whose id the request's path names. */
  'pet-is-requested': Record<string, never>;
  /** The Pet's status is absent or one of the contract's PetStatus values. */
  'status-omitted-or-enum': Record<string, never>;
  /** A Deprecation header: RFC 9745's @<unix seconds>, or the older "true" or an HTTP-date. */
  'deprecation-header': Record<string, never>;
  /** A Sunset HTTP-date naming the day of the operation's x-sunset in the contract. */
  'sunset-names-day': Record<string, never>;
  /** A Link header with a rel to the replacement or the deprecation notice. */
  'deprecation-link': Record<string, never>;
  /** The status is one the contract documents for the exchange's operation (or a removal after its sunset). */
  'status-documented': Record<string, never>;
  /** Allow lists the methods the interface gives the request's path. */
  'allow-lists-path-methods': Record<string, never>;
  /** CON-002's model run again over the exchanges, in order; `tag` starts the name of every pet the run created. */
  'store-model': { tag: string };
  /** The body is the Pet the exchange `idFrom` answered: id, name, categoryId and status, exactly. */
  'pet-as-answered': { idFrom: number };
  /** A rate-limit header is a plain integer, one of `oneOf` or at least `min`. */
  'rate-header-is': { field: 'limit' | 'remaining' | 'reset'; oneOf?: number[]; min?: number };
  /** X-RateLimit-Limit, -Remaining and -Reset are single non-negative integers, Remaining ≤ Limit. */
  'rate-headers-integers': Record<string, never>;
  /** No Retry-After, or one in RFC 9110's syntax (delay-seconds or an HTTP-date). */
  'retry-after-syntax': Record<string, never>;
  /** A 429's Retry-After within RETRY_RESET_AGREEMENT_MS of X-RateLimit-Reset − now, by the target's clock. */
  'retry-after-agrees-reset': Record<string, never>;
  /** One key's consecutive responses: Remaining falls at each while Reset stays the same. */
  'rate-remaining-falls': Record<string, never>;
  /** One key's consecutive responses: Reset never moves back. */
  'rate-reset-never-back': Record<string, never>;
  /** One key's exhaustion, first to its 429: the response before the 429 said Remaining 0 (or as little as others' requests explain). */
  'rate-429-after-zero': Record<string, never>;
  /** One key's consecutive responses: none served after one that said Remaining 0, in the same window. */
  'rate-none-served-past-zero': Record<string, never>;
  /** A window seen whole, its first request to its 429: it served its X-RateLimit-Limit. */
  'rate-window-serves-limit': Record<string, never>;
  /** A key only the suite spends, first to its 429: the answer before a 429 of its window said Remaining 0. */
  'rate-429-after-own-zero': Record<string, never>;
  /** A reading, then requests only the suite sent: no 429 of the reading's window before its Remaining is served. */
  'rate-promise-kept': Record<string, never>;
  /**
   * RATE-008 on a key only the suite spends: a 429, the key whole again, spent again to a 429, and the
   * answer at the refill that 429 promised (when it was sent): no whole window sooner than a `windowS` window allows.
   */
  'rate-window-length': { windowS: number };
  /** A 429's Retry-After ends no more than RETRY_AFTER_PAST_RESET_MS after X-RateLimit-Reset, by the target's clock. */
  'retry-after-within-reset': Record<string, never>;
  /**
   * Two readings of one key, `burst` requests on another key between them: the first served in the
   * window the second names, and Remaining fell by the key's own request at most.
   */
  'rate-key-unmoved': { burst: number };
  /**
   * RATE-008: a plan key's first reading, then bursts of `bursts` sizes: every window the suite opened
   * serves `perMinute` requests and refuses the next; one it did not open serves no more than its
   * Remaining promised. `preflighted`: one request before the first may be the preflight's.
   */
  'rate-plan-window': { perMinute: number; bursts: number[]; preflighted: boolean };
  /** The status is not `status` (a key served while another is refused: anything but 429). */
  'status-other-than': { status: number };
  /** The always-on checks, run again on the exchange, find nothing against `requirement`. */
  'no-finding': { requirement: string };
  /** A 201's Location names /pets/{the id of its body}. */
  'location-names-pet': Record<string, never>;
  /** The framing probe heard nothing after the response, until the next request (its raw exchange records it). */
  'nothing-heard-after': Record<string, never>;
  /**
   * HTTP-001: the framing and close probes' exchanges, judged together from their record of the wire:
   * every request answered once, nothing after an answer, pipelined answers in order, a close only where
   * announced, nothing answered after a Connection: close; a first run may only have lost a request.
   */
  'framing-probe-kept': Record<string, never>;
  /** HTTP-002, from the record of the wire: a Host-less request answered 400. */
  'answered-400': Record<string, never>;
  /** HTTP-002: an unknown expectation answered below 500. */
  'answered-below-500': Record<string, never>;
  /** HTTP-002: CONNECT refused (no 2xx), or the connection closed. */
  'tunnel-refused': Record<string, never>;
  /** HTTP-002: bytes that are not HTTP refused with a 4xx, or the connection closed. */
  'refused-4xx-or-closed': Record<string, never>;
  /** HTTP-002: the valid request before bytes that are not HTTP answered first (below 400, or 429), or a close; never a hang. */
  'own-answer-first': Record<string, never>;
  /** HTTP-002: an answer's JSON object body has a non-empty code and message. */
  'error-body-whole': Record<string, never>;
}

export type RuleName = keyof RuleParams;
