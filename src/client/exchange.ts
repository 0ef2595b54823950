import type { WireRecord } from '../text/wire-record.ts';

/**
 * One request and its response as recorded for the reporter. Already redacted: the Authorization value
 * reads `Bearer ***`, the URL holds no credentials, curl uses $API_KEY.
 */
export interface Exchange {
  /** Order within the recording client. */
  seq: number;
  /** Epoch milliseconds when the request was sent. */
  startedAt: number;
  durationMs: number;
  /** listPets | createPet | getPet, or undefined for a path outside the interface. */
  operationId: string | undefined;
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    /** Text of the body sent, cut like the response body. */
    body?: string;
    bodyTruncated?: boolean;
    /**
     * Redaction changed the URL or the kept body: the log holds a request other than the one sent (text like
     * the API key, replaced by ***). A rule that read it as sent is asked again on it (harness/unprovable.ts).
     */
    redacted?: true;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    /** Text of the body, cut to a few KiB for the report (a list: whole, up to LIST_BODY_CHARS). */
    body?: string;
    bodyTruncated?: boolean;
    /** The body's size on the wire, in bytes: what proves a cut (the kept prefix is shorter). */
    size?: number;
    /** A list cut for the report (over LIST_BODY_CHARS): how many items the whole list held, so `list-length` still counts. */
    items?: number;
    /**
     * The body as received when it is not UTF-8 (its text shows U+FFFD where the bytes were): the bytes,
     * redacted and cut like the text, so a rule and a check read them again as the client did.
     */
    bytes?: { base64: string; sha256: string };
    /**
     * Redaction changed the headers or the kept body: the log holds text other than the target sent (text
     * like the API key, replaced by ***). What the checks make of it may differ from what they made of
     * the answer; the harness reads it again (recorded-checks.ts) so that the report claims no more than the log proves.
     */
    redacted?: boolean;
  };
  /** A transport failure (timeout, reset, oversized body): a HarnessError code and message. */
  error?: { code: string; message: string };
  /** Reproduce with: this line. Uses $API_KEY, never the key. */
  curl: string;
  /** X-RateLimit-* as read from the response, when they parse as integers. */
  rateLimit?: { limit?: number; remaining?: number; reset?: number };
  /** How many 429s the client waited out before this answer (pacing, not blamed on the target). */
  retries?: number;
  /** Set when the request spent a key other than the main one: the exhaustion key (--exhaust-key) or a plan key (--plan-key). */
  keyRole?: 'exhaust';
  /** In a test's evidence: another test (named) made this exchange, and this one judged it too. */
  sharedFrom?: string;
  /** Written and read byte for byte by the framing probe (raw-http.ts), not by the client: no always-on check ran on it. */
  raw?: true;
  /** The framing probe's: what it heard after the response, within its quiet time (bytes nobody asked for, a close). */
  heardAfter?: { bytes: number; closed: boolean };
  /** A raw probe's (HTTP-001, HTTP-002): the bytes written and read, the connection, how the reading ended. */
  wire?: WireRecord;
  /**
   * What the client's connections did before this response, which its checks judged (HTTP-001): bytes a
   * pooled connection received while no request was in flight (redacted), a retry after a dropped one.
   */
  connection?: {
    strayBefore?: { bytes: string; count: number };
    droppedBefore?: { error: string; idleMs: number | undefined; drops: number; answered: number };
  };
  /** The test file that sent it, and the number that file gave it (set when the run numbers every exchange once). */
  file?: string;
  fileSeq?: number;
  /** Its headers and bodies were dropped to keep a passing test's evidence small (harness/evidence.ts). */
  summarised?: true;
}
