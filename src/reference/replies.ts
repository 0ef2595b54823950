/** What the pipeline hands to the wire: status, JSON text and the headers beyond the standard ones. */

export type OperationId = 'listPets' | 'createPet' | 'getPet';

/** Every kind of error the reference answers; by default the kind is also the Error body's `code`. */
export const ERROR_KINDS = [
  'unauthorized',
  'invalid_json',
  'invalid_body',
  'invalid_query',
  'invalid_pet_id',
  'not_found',
  'gone',
  'method_not_allowed',
  'unsupported_media_type',
  'payload_too_large',
  'bad_request',
  'header_too_large',
  'rate_limited',
  'internal_error',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** One rate-limit window as reported in the X-RateLimit-* headers. */
export interface RateInfo {
  limit: number;
  remaining: number;
  /** Unix seconds, rounded up so that the window has surely turned when it is reached. */
  reset: number;
  resetMs: number;
  /** Seconds until the window turns, when the request was counted (the IETF RateLimit field's t). */
  resetIn: number;
  /** Length of the window the numbers are of, in seconds (the IETF RateLimit-Policy field's w). */
  windowS: number;
  /** Seconds to wait; set only when the request was refused. */
  retryAfter?: number;
}

export interface ErrorInfo {
  kind: ErrorKind;
  code: string;
  message: string;
}

export interface Reply {
  status: number;
  /** JSON text unless contentType says otherwise; undefined for an empty body. */
  body: string | undefined;
  contentType?: string;
  /** Extra headers (lower-case names). Shared objects may sit here: copy, never mutate. */
  headers?: Readonly<Record<string, string>>;
  error?: ErrorInfo;
  rate?: RateInfo;
}

export type ErrorReplyFactory = (status: number, kind: ErrorKind, message: string, headers?: Readonly<Record<string, string>>) => Reply;

/** Builds Error replies with the server's code table (a variant may rename the codes). */
export function createErrorReplies(codes: Partial<Record<ErrorKind, string>> = {}): ErrorReplyFactory {
  const table = new Map<ErrorKind, string>(ERROR_KINDS.map((kind) => [kind, codes[kind] ?? kind]));
  return (status, kind, message, headers) => {
    const code = table.get(kind) ?? kind;
    return {
      status,
      body: errorBody(code, message, status),
      error: { kind, code, message },
      ...(headers ? { headers } : {}),
    };
  };
}

export function errorBody(code: string, message: string, status: number): string {
  return JSON.stringify({ code, message, status });
}

export function jsonReply(status: number, body: string, headers?: Readonly<Record<string, string>>): Reply {
  return headers ? { status, body, headers } : { status, body };
}
