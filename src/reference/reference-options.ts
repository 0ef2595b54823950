import type { Contract } from '../contract/index.ts';
import type { FaultName, IndependentFaultName, OutsideFaultName } from './faults/all-faults.ts';
import type { Clock } from './pipeline.ts';
import type { ApiKeyConfig, Limits } from './api-keys.ts';
import type { ErrorKind } from './replies.ts';

/**
 * Options of startReferenceServer. Everything is optional: the defaults are the correct server of the
 * interface. The options from `invalidLimit` on are liberties a valid server may take (see variants.ts).
 */
export interface ReferenceOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Path the operations answer under; must end in /v1 for a conformant server. Default '/v1'. */
  basePath?: string;
  /** Default Date.now. */
  clock?: Clock;
  /** Default: one generated demo key per plan. An empty list leaves every request unauthenticated. */
  keys?: readonly ApiKeyConfig[];
  /** Length of the per-minute window (ms). Default 60 000. */
  rateWindowMs?: number;
  /** Length of the per-day window (ms). Default 86 400 000. */
  dayWindowMs?: number;
  /** Limits of unauthenticated clients, per address. Default 600/min, 100 000/day. */
  anonymousLimits?: Limits;
  /** Largest createPet body in bytes. Default 64 KiB. */
  bodyLimit?: number;
  /** Open connections at most; the ones beyond are closed as they arrive. Default 4096. */
  maxConnections?: number;
  /** The compiled contract to validate NewPet with; compiled once per server when not given. */
  contract?: Contract;
  /** First id of the sequence. Default 1n. */
  idStart?: bigint;
  /** Default 'sequential'. */
  idScheme?: 'sequential' | 'random';
  /** Pets already in the store: how many, generated. */
  seedPets?: number;
  /** Named deviations from the interface (faults/: every set); the server is then deliberately wrong. */
  faults?: readonly (FaultName | IndependentFaultName | OutsideFaultName)[];
  /** Where unexpected errors are reported. Default console.error. */
  log?: (message: string) => void;

  /** Out-of-range or non-integer limit: 400 (default), clamped to 1..100, or read as absent (the default of 20). */
  invalidLimit?: 'reject' | 'clamp' | 'default';
  /** Status filter outside PetStatus: 400 (default) or an empty list. */
  unknownStatusFilter?: 'reject' | 'empty';
  /** Status stored when none is given; default none (the field is omitted). */
  defaultStatus?: string;
  /** Adds createdAt and tags to every Pet. */
  extraPetFields?: boolean;
  /** Other strings for the Error body's code. */
  errorCodes?: Partial<Record<ErrorKind, string>>;
  /** petId that is not an int64: 400 (default) or 404. */
  invalidPetIdStatus?: 400 | 404;
  /** createPet body that is not application/json: 415 (default) or 400. */
  wrongContentTypeStatus?: 400 | 415;
  /** Default 'seconds'. */
  retryAfterFormat?: 'seconds' | 'http-date';
  /** How the per-minute window is kept: fixed windows aligned on the clock (default), or a sliding log. */
  rateLimiter?: 'fixed-window' | 'sliding-log';
  /** false: getPet sends no Deprecation, Sunset or Link (the interface does not say how "deprecated" is shown). */
  deprecationHeaders?: false;
  /** 429 body: the Error body (default) or another JSON object, {"message": …}. */
  rateLimitedBody?: 'error' | 'message';
  /** Default 'oldest-first'. */
  listOrder?: 'oldest-first' | 'newest-first';
  /** The only category ids createPet accepts; default any int64. */
  categoryIds?: readonly (bigint | number)[];
  /** A categoryId written with an exponent or a zero fraction (1e3, 1000.0): read as the integer (default) or refused with 400. */
  numberForms?: 'exact' | 'refuse';
  /** NewPet fields the interface does not define: ignored (default) or refused with 400. */
  undefinedNewPetFields?: 'ignore' | 'refuse';
  /** listPets and getPet query parameters the interface does not define: ignored (default) or refused with 400. */
  undefinedQueryParameters?: 'ignore' | 'refuse';
  /** Bounds on the name's length (code points); default none. */
  nameLength?: { min: number; max: number };
  /** Delay before every response (ms). */
  delayMs?: number;
  /** Send the IETF RateLimit and RateLimit-Policy fields as well as X-RateLimit-*. Default true. */
  ietfRateLimitFields?: boolean;
  /** Connection: close on every response. */
  connectionClose?: boolean;
  /** Chunked response bodies (no Content-Length). */
  chunked?: boolean;
}

export const DEFAULTS = Object.freeze({
  host: '127.0.0.1',
  basePath: '/v1',
  rateWindowMs: 60_000,
  dayWindowMs: 86_400_000,
  anonymousLimits: Object.freeze({ perMinute: 600, perDay: 100_000 }),
  bodyLimit: 64 * 1024,
  maxConnections: 4096,
  idStart: 1n,
});
