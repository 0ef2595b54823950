import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Commit } from './create-pet.ts';
import type { AuthRefusal, KeyRecord, KeyRing } from './key-ring.ts';
import type { Limits } from './api-keys.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { ErrorReplyFactory, OperationId, RateInfo, Reply } from './replies.ts';
import { type RequestTarget, type Route, splitTarget } from './router.ts';

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export interface PipelineDeps {
  clock: Clock;
  ring: KeyRing;
  limiter: RateLimiter;
  anonymousLimits: Limits;
  route(method: string | undefined, path: string): Route;
  listPets(search: string): Reply;
  createPet(req: IncomingMessage, now: number): Reply | Promise<Reply | Commit>;
  getPet(rawId: string, now: number): Reply;
  errorReply: ErrorReplyFactory;
  seams: PipelineSeams;
  /** Deprecation, Sunset and Link, added to every getPet response. */
  deprecation: Readonly<Record<string, string>>;
  /** The 429 reply when it is not the Error body (a valid variant: the interface does not show it). */
  rateLimitedReply?: (rate: RateInfo) => Reply;
}

type OperationRoute = Route & { kind: 'operation' };
type Prepared = Reply | Commit;

/**
 * An operation's checks without the write: a reply, or the commit that would store the pet. An
 * auth-order fault runs them for a refused request to answer with their error.
 */
export type Prepare = (req: IncomingMessage, route: OperationRoute, search: string, now: number) => Prepared | Promise<Prepared>;

/** The pipeline's seams (see seams.ts). */
export interface PipelineSeams {
  /** The outcome of authentication: the key, or why it was refused. */
  admit(auth: KeyRecord | AuthRefusal, authorization: string | undefined, search: string, ring: KeyRing, connection: object): KeyRecord | AuthRefusal;
  /** A refused request: the reply to send instead of the 401, or undefined for the 401. */
  answerBeforeAuth(req: IncomingMessage, route: Route, search: string, now: number, prepare: Prepare): Promise<Reply | undefined>;
  reply(reply: Reply, operation: OperationId | undefined, method: string | undefined, search: string, now: number, errorReply: ErrorReplyFactory): Reply;
  /** The request target split into path and query, from the raw target (origin-form or absolute-form). */
  target(target: RequestTarget, url: string | undefined): RequestTarget;
}

const CHALLENGE = Object.freeze({ 'www-authenticate': 'Bearer realm="animal-store"' });
const CHALLENGE_INVALID = Object.freeze({ 'www-authenticate': 'Bearer realm="animal-store", error="invalid_token"' });

/**
 * Order of checks: authentication, then the rate limit, then routing (404/405), then the operation's
 * own checks. Returns the reply to send; the caller writes it.
 */
export function createPipeline(deps: PipelineDeps): (req: IncomingMessage) => Reply | Promise<Reply> {
  const { clock, ring, limiter, anonymousLimits, seams, errorReply, deprecation } = deps;
  // A keep-alive connection sends the same Authorization on every request: once accepted there, it is
  // not hashed again. The comparison is with what this same connection sent, never another client's key.
  const acceptedOn = new WeakMap<Socket, { authorization: string; record: KeyRecord }>();

  function authenticate(req: IncomingMessage, authorization: string | undefined): KeyRecord | AuthRefusal {
    const accepted = acceptedOn.get(req.socket);
    if (accepted !== undefined && accepted.authorization === authorization) return accepted.record;
    const auth = ring.authenticate(authorization);
    if (typeof auth !== 'string' && authorization !== undefined) acceptedOn.set(req.socket, { authorization, record: auth });
    return auth;
  }

  function unauthorized(reason: AuthRefusal): Reply {
    return reason === 'invalid-token'
      ? errorReply(401, 'unauthorized', 'the API key is not valid', CHALLENGE_INVALID)
      : errorReply(401, 'unauthorized', 'an API key is required: send Authorization: Bearer <API_KEY>', CHALLENGE);
  }

  const rateLimited =
    deps.rateLimitedReply ?? ((rate: RateInfo): Reply => errorReply(429, 'rate_limited', `rate limit exceeded; retry after ${rate.retryAfter} s`));

  function prepare(req: IncomingMessage, route: OperationRoute, search: string, now: number): Prepared | Promise<Prepared> {
    if (route.operation === 'listPets') return deps.listPets(search);
    if (route.operation === 'createPet') return deps.createPet(req, now);
    return deps.getPet(route.petId ?? '', now);
  }

  function dispatch(req: IncomingMessage, route: Route, search: string, now: number): Prepared | Promise<Prepared> {
    if (route.kind === 'not-found') return errorReply(404, 'not_found', 'no such resource');
    if (route.kind === 'method-not-allowed') {
      return errorReply(405, 'method_not_allowed', `method ${req.method} is not allowed here`, { allow: route.allow });
    }
    return prepare(req, route, search, now);
  }

  /** The reply with its rate numbers and getPet's deprecation fields, as the reply seam leaves it. */
  function finish(reply: Reply, rate: RateInfo, req: IncomingMessage, operation: OperationId | undefined, search: string, now: number): Reply {
    reply.rate = rate;
    if (operation === 'getPet') reply.headers = reply.headers ? { ...reply.headers, ...deprecation } : deprecation;
    return seams.reply(reply, operation, req.method, search, now, errorReply);
  }

  /** A request without a valid key: what an auth-order fault answers first, or the 401. */
  function refused(
    req: IncomingMessage,
    route: Route,
    auth: AuthRefusal,
    rate: RateInfo,
    operation: OperationId | undefined,
    search: string,
    now: number,
  ): Promise<Reply> {
    return seams.answerBeforeAuth(req, route, search, now, prepare).then((answer) => finish(answer ?? unauthorized(auth), rate, req, operation, search, now));
  }

  /**
   * Synchronous unless the operation reads a body (createPet) or an auth-order fault answers first: a
   * list or an item is answered in the request's own tick, without a promise.
   */
  return function handle(req) {
    const now = clock.now();
    const { path, search } = seams.target(splitTarget(req.url), req.url);
    const route = deps.route(req.method, path);
    const operation = route.kind === 'operation' ? route.operation : undefined;
    const authorization = req.headers.authorization;
    const auth = seams.admit(authenticate(req, authorization), authorization, search, ring, req.socket);

    let reply: Reply;
    let rate: RateInfo;
    if (typeof auth === 'string') {
      // No key to charge: unauthenticated clients share a limiter per address, so guessing keys is throttled too.
      rate = limiter.consume(limiter.anonymousBucket(req.socket.remoteAddress ?? '', now), anonymousLimits, now);
      if (rate.retryAfter !== undefined) reply = rateLimited(rate);
      else return refused(req, route, auth, rate, operation, search, now);
    } else {
      rate = limiter.consume(auth.bucket, auth, now);
      const prepared = rate.retryAfter !== undefined ? rateLimited(rate) : dispatch(req, route, search, now);
      if (prepared instanceof Promise) return prepared.then((ready) => finish(commit(ready), rate, req, operation, search, now));
      reply = commit(prepared);
    }
    return finish(reply, rate, req, operation, search, now);
  };
}

/** A prepared operation: its reply, or the commit that stores the pet and gives the reply. */
function commit(prepared: Prepared): Reply {
  return typeof prepared === 'function' ? prepared() : prepared;
}
