/**
 * What a setting is when no flag, variable or file names it: the one table every default is read
 * from (the CLI's usage, the report of a rejected configuration).
 */
export const CONFIG_DEFAULTS = Object.freeze({
  reportDir: 'reports',
  /** A remote target gets the profile CI uses; the embedded reference, which costs nothing, the fullest. */
  remoteProfile: 'standard',
  embeddedProfile: 'thorough',
  timeoutMs: 10_000,
  /** CON-004's held connection: past the 40 s after which a target was seen treating connections apart. */
  holdConnectionS: 45,
  /**
   * The embedded reference treats no connection by its age (no fault of it does): its hold proves the
   * machinery, not the target, so it is short. It sends the same requests as a hold of up to
   * KEEP_ALIVE_MS (suites/support/held-connection.ts): the first keep-alive list and one at the end. A
   * longer one only keeps a worker asleep while the others compute (docs/performance.md).
   */
  embeddedHoldConnectionMs: 250,
  readOnly: false,
  exhaust: true,
  strict: false,
  failFast: false,
  requireComplete: false,
  quiet: false,
} as const satisfies Record<string, string | number | boolean>);
