import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type Contract, createContract } from '../contract/index.ts';
import { clientErrorStatus, rawResponse } from './client-error.ts';
import { createConnectionCare } from './connections.ts';
import { createCreatePet } from './create-pet.ts';
import { deprecationHeaders } from './deprecation.ts';
import { type AnyFaultName, namedFaults } from './faults/compose.ts';
import { adaptSeams } from './faults/seam-adapters.ts';
import { lenientStatus, newestFirst, bareRateLimited, limitReader } from './liberties.ts';
import { withNewPetLiberties, withQueryLiberty } from './liberty-seams.ts';
import { randomIds } from './random-ids.ts';
import { strictStatus } from './list-query.ts';
import { petRenderer } from './pet-wire.ts';
import { seamsOf } from './seams.ts';
import { createGetPet } from './get-pet.ts';
import { createKeyRing } from './key-ring.ts';
import { createListPets } from './list-pets.ts';
import { createNewPetReader } from './new-pet.ts';
import type { ReferenceOptions } from './reference-options.ts';
import { createPipeline } from './pipeline.ts';
import type { ApiKey } from './api-keys.ts';
import { createLimiterOf } from './sliding-log-limiter.ts';
import { type Reply, createErrorReplies } from './replies.ts';
import { createRouter } from './router.ts';
import { type TransportSettings, sendReply } from './send.ts';
import { checkSettings, seedStore } from './settings.ts';
import { generateDemoKeys, resolveApiKeys } from './startup/key-config.ts';
import { checkDefaultStatus, petStatuses } from './startup/settings-checks.ts';
import { closerOf, reachableUrl } from './startup/lifecycle.ts';
import { type PetStoreView, createPetStore } from './store.ts';

// How long the rest of a refused upload is read and dropped before its connection closes (connections.ts).
const LINGER_MS = 2_000;
// Slow clients: the headers within 20 s, the whole request within 30 s (node's defaults: 60 s and 300 s).
const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 30_000;
// How often node looks for connections past those time-outs (its default: every 30 s).
const CHECK_INTERVAL_MS = 5_000;

export interface ReferenceServer {
  /** The base URL, e.g. http://127.0.0.1:PORT/v1. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly basePath: string;
  /** The keys the server accepts, with their plans' limits. */
  readonly keys: readonly ApiKey[];
  /** True when no keys were given and demo keys were generated. */
  readonly generatedKeys: boolean;
  readonly faults: readonly AnyFaultName[];
  readonly contract: Contract;
  /** Read-only view of the store. */
  readonly store: PetStoreView;
  /** How many pets the store holds. */
  readonly pets: number;
  /** Stops listening and closes every connection, idle keep-alive ones included. */
  close(): Promise<void>;
}

/** Starts an independent reference server: its own store, keys and limiter. */
export async function startReferenceServer(options: ReferenceOptions = {}): Promise<ReferenceServer> {
  const settings = checkSettings(options);
  const faults = namedFaults(options.faults);
  const hooks = faults.hooks;
  const seams = withQueryLiberty(withNewPetLiberties(seamsOf(hooks, adaptSeams(hooks)), options), options);
  const contract = options.contract ?? createContract();
  const statuses = petStatuses(contract);
  checkDefaultStatus(options.defaultStatus, statuses);
  const clock = options.clock ?? { now: Date.now };
  const log = options.log ?? ((message: string) => console.error(message));
  const basePath = seams.basePath(settings.basePath);
  const keys = options.keys ? resolveApiKeys(options.keys) : generateDemoKeys();
  const ring = createKeyRing(keys);
  const limiter = createLimiterOf(options.rateLimiter)({ minuteMs: settings.rateWindowMs, dayMs: settings.dayWindowMs }, seams);
  const anonymousLimits = settings.anonymousLimits;
  const errorReply = createErrorReplies(options.errorCodes);
  const store = createPetStore(
    {
      idStart: settings.idStart,
      ...(options.idScheme === 'random' ? { ids: randomIds } : {}),
      render: petRenderer(hooks.petWire, options.extraPetFields ?? false),
    },
    seams,
  );
  seedStore(store, options.seedPets, statuses, clock.now());

  const handle = createPipeline({
    clock,
    ring,
    limiter,
    anonymousLimits,
    seams,
    errorReply,
    route: createRouter(basePath),
    deprecation: options.deprecationHeaders === false ? {} : deprecationHeaders(basePath),
    ...(options.rateLimitedBody === 'message' ? { rateLimitedReply: bareRateLimited } : {}),
    listPets: createListPets({
      store,
      seams,
      errorReply,
      ...(options.listOrder === 'newest-first' ? { select: newestFirst } : {}),
      query: {
        readLimit: limitReader(options.invalidLimit ?? 'reject'),
        readStatus: options.unknownStatusFilter === 'empty' ? lenientStatus : strictStatus(new Set(statuses)),
      },
    }),
    createPet: createCreatePet({
      store,
      seams,
      errorReply,
      basePath,
      bodyLimit: settings.bodyLimit,
      wrongContentTypeStatus: options.wrongContentTypeStatus ?? 415,
      readNewPet: createNewPetReader(contract, settings.newPetRules, statuses, seams),
    }),
    getPet: createGetPet({ store, seams, errorReply, invalidPetIdStatus: options.invalidPetIdStatus ?? 400 }),
  });

  const transport: TransportSettings = {
    retryAfterFormat: options.retryAfterFormat ?? 'seconds',
    ietfRateLimit: options.ietfRateLimitFields ?? true,
    chunked: options.chunked ?? false,
    connectionClose: options.connectionClose ?? false,
  };
  const timers = new Set<NodeJS.Timeout>();
  const connections = createConnectionCare({ lingerMs: LINGER_MS });

  function failSafe(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    // Never expected: the tests assert it does not happen. The query is left out of the log (it may hold a key).
    const path = (req.url ?? '').split('?')[0];
    log(`reference server: unexpected error on ${req.method} ${path}: ${error instanceof Error ? error.stack : String(error)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const reply = anonymousError(req.socket, 500, 'internal_error', 'the reference server failed unexpectedly');
    // A 500 is not a refusal: it never says when to come back, even when the address is over its limit.
    delete reply.rate?.retryAfter;
    try {
      sendReply(res, reply, transport);
    } catch {
      res.destroy();
    }
  }

  function deliver(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
    // A refused upload still on its way: the answer closes the connection, gently (connections.ts).
    if (reply.status === 413 && !req.complete) {
      reply.headers = { ...reply.headers, connection: 'close' };
      connections.closeGently(req.socket);
    }
    if (settings.delayMs === 0) {
      sendReply(res, reply, transport);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      try {
        sendReply(res, reply, transport);
      } catch (error) {
        failSafe(req, res, error);
      }
    }, settings.delayMs);
    timers.add(timer);
  }

  /** An Error reply counted against the client's address: for answers given before the pipeline. */
  function anonymousError(socket: Socket, status: number, kind: Parameters<typeof errorReply>[1], message: string): Reply {
    const reply = errorReply(status, kind, message);
    const now = clock.now();
    reply.rate = limiter.consume(limiter.anonymousBucket(socket.remoteAddress ?? '', now), anonymousLimits, now);
    // The reply seam sees these answers too: a fault may answer them as a bare framework would.
    return seams.reply(reply, undefined, undefined, '', now, errorReply);
  }

  // Node's own answers (no Host, an unknown Expect, CONNECT) would carry neither the Error body nor the
  // rate-limit headers every response must have: the server gives them itself.
  const server = createServer(
    {
      noDelay: true,
      requireHostHeader: false,
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: CHECK_INTERVAL_MS,
    },
    (req, res) => {
      connections.track(req, res);
      if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
        deliver(req, res, anonymousError(req.socket, 400, 'bad_request', 'an HTTP/1.1 request needs a Host header'));
        return;
      }
      try {
        const reply = handle(req);
        if (reply instanceof Promise) {
          // Sent once the body is read (createPet) or an auth-order fault has its answer. One then with
          // both handlers rather than then().catch(): a second promise a POST would pay for nothing.
          reply.then(
            (ready) => {
              try {
                deliver(req, res, ready);
              } catch (error) {
                failSafe(req, res, error);
              }
            },
            (error: unknown) => failSafe(req, res, error),
          );
        } else deliver(req, res, reply);
      } catch (error) {
        failSafe(req, res, error);
      }
    },
  );
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    deliver(req, res, anonymousError(req.socket, 417, 'bad_request', `the expectation ${JSON.stringify(req.headers.expect ?? '')} is not supported`));
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => undefined);
    socket.end(rawResponse(anonymousError(socket, 405, 'method_not_allowed', 'CONNECT is not supported'), transport.ietfRateLimit));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    connections.afterAnswerInFlight(socket, () => {
      if (!socket.writable) return;
      const status = clientErrorStatus(error.code);
      socket.end(
        rawResponse(
          anonymousError(socket, status, status === 431 ? 'header_too_large' : 'bad_request', 'the request is not valid HTTP/1.1'),
          transport.ietfRateLimit,
        ),
      );
    });
  });
  server.maxConnections = settings.maxConnections;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return Object.freeze({
    url: reachableUrl(settings.host, port, basePath),
    port,
    host: settings.host,
    basePath,
    keys,
    generatedKeys: options.keys === undefined,
    faults: faults.names,
    contract,
    store: Object.freeze({
      get size() {
        return store.size;
      },
      get: store.get,
      all: store.all,
    }),
    get pets() {
      return store.size;
    },
    close: closerOf(server, timers),
  });
}
