import type { IncomingHttpHeaders } from 'node:http';
import type { ValidationIssue } from '../contract/index.ts';
import type { CreatePetSeams } from './create-pet.ts';
import type { GetPetSeams } from './get-pet.ts';
import type { KeyRecord, KeyRing } from './key-ring.ts';
import type { ListPetsSeams } from './list-pets.ts';
import type { ListQuery, RawListQuery } from './list-query.ts';
import type { NewPetOutcome, NewPetSeams } from './new-pet.ts';
import type { PipelineSeams } from './pipeline.ts';
import type { RateLimiterSeams, Refuse } from './rate-limiter.ts';
import type { RequestTarget } from './router.ts';
import type { ErrorReplyFactory, OperationId, Reply } from './replies.ts';
import type { NewPetRecord, PetStoreView, StoreCalls, StoreSeams, StoredPet } from './store.ts';

/*
 * The reference server's seams: the points where a named fault (faults/) may change what the correct
 * server does. The core owns them; faults/ implements them. The store and the rate limiter declare
 * their own seams beside their code, and FaultHooks gathers every seam in one type.
 *
 * A fault writes the hooks it needs (FaultHooks, every one optional). The core calls the complete set
 * (Seams), which seamsOf builds: a hook a fault did not write passes the correct server's value through
 * unchanged. The core therefore has no branch that only a fault takes: each seam is one unconditional
 * call, and the code a fault needs around its hook (answering before authentication, accepting an
 * invalid body) lives here, outside the core that mutation testing measures.
 */

/** What an auth fault sees of the request. */
export interface AuthAttempt {
  readonly authorization: string | undefined;
  /** The raw query string (no `?`). */
  readonly search: string;
  readonly ring: KeyRing;
  /** The connection the request came on (its socket), for faults that remember per connection. */
  readonly connection: object;
}

export interface ReplyContext {
  readonly operation: OperationId | undefined;
  readonly method: string | undefined;
  /** The raw query string (no `?`). */
  readonly search: string;
  readonly now: number;
  /** Builds an Error reply with the server's codes. */
  readonly errorReply: ErrorReplyFactory;
}

/**
 * The named seams of the server where a fault may change behaviour. Each hook receives the value the
 * correct server computed and returns the value to use, so several faults chain.
 */
export interface FaultHooks extends StoreSeams, RateLimiterSeams {
  /** routing: the base path the server answers under. */
  basePath?(basePath: string): string;
  /** auth: the key admitted by strict authentication, or undefined when it refused the request. */
  authenticate?(key: KeyRecord | undefined, attempt: AuthAttempt): KeyRecord | undefined;
  /** auth order: whether an error found in the request is answered before authentication is checked. */
  answerBeforeAuth?(answer: boolean, reply: Reply, operation: OperationId): boolean;
  /** createPet: whether the request announces a body (a length above 0, or chunked coding). */
  bodyAnnounced?(announced: boolean, headers: IncomingHttpHeaders): boolean;
  /** createPet: the body read, from the pieces it arrived in. */
  joinBody?(body: Buffer, pieces: readonly Buffer[]): Buffer;
  /** validation: whether the request's Content-Type is accepted for a JSON body. */
  acceptMediaType?(accepted: boolean, contentType: string | undefined): boolean;
  /** validation: whether a categoryId written with an exponent or a fraction is read again exactly. */
  exactNumbers?(reRead: boolean): boolean;
  /** validation: a NewPet made from a body that failed validation (undefined keeps the 400). */
  acceptInvalid?(accepted: NewPetRecord | undefined, body: unknown, issues: readonly ValidationIssue[]): NewPetRecord | undefined;
  /** validation: what createPet makes of the body: a NewPet, or why it is refused. */
  newPetOutcome?(outcome: NewPetOutcome, body: Buffer): NewPetOutcome;
  /** store: the NewPet as it is about to be stored. */
  newPet?(pet: NewPetRecord): NewPetRecord;
  /** store: the pet getPet answers with. */
  findPet?(pet: StoredPet | undefined, store: PetStoreView): StoredPet | undefined;
  /** getPet: the id read from the path, undefined when it is not an int64. */
  petId?(id: bigint | undefined, raw: string): bigint | undefined;
  /** listPets: the interpreted query. */
  listQuery?(query: ListQuery, raw: RawListQuery): ListQuery;
  /** listPets: the pets a list is taken from, in creation order. */
  listSource?(pets: readonly StoredPet[]): readonly StoredPet[];
  /** status, headers and body: the reply as it is about to be sent. */
  reply?(reply: Reply, context: ReplyContext): Reply;
  /** routing: the path and query read from the raw request target (`url`, as the request line has it). */
  target?(target: RequestTarget, url: string | undefined): RequestTarget;
}

/**
 * The seams as the core calls them: every one present, arguments positional. Each part is declared
 * beside the code that calls it.
 */
export type Seams = PipelineSeams &
  CreatePetSeams &
  GetPetSeams &
  ListPetsSeams &
  NewPetSeams &
  StoreCalls & {
    refuse: Refuse;
    basePath(basePath: string): string;
  };

const same = <T>(value: T): T => value;

/**
 * The seams whose fault hooks have another shape than the seam: a faulty server's assembly adapts them
 * (faults/seam-adapters.ts), so the core holds no code only a fault runs.
 */
export type AdaptedSeams = Partial<Pick<Seams, 'admit' | 'answerBeforeAuth' | 'invalidBody' | 'reply' | 'refuse'>>;

/** The complete seams of a server with the given fault hooks (none: the correct server). */
export function seamsOf(hooks: FaultHooks, adapted: AdaptedSeams = {}): Seams {
  return {
    basePath: hooks.basePath ?? same,
    admit: adapted.admit ?? same,
    answerBeforeAuth: adapted.answerBeforeAuth ?? (async () => undefined),
    bodyAnnounced: hooks.bodyAnnounced ?? same,
    joinBody: hooks.joinBody ?? same,
    acceptMediaType: hooks.acceptMediaType ?? same,
    invalidBody: adapted.invalidBody ?? same,
    exactNumbers: hooks.exactNumbers ?? same,
    newPetOutcome: hooks.newPetOutcome ?? same,
    newPet: hooks.newPet ?? same,
    findPet: hooks.findPet ?? same,
    petId: hooks.petId ?? same,
    listQuery: hooks.listQuery ?? same,
    listSource: hooks.listSource ?? same,
    reply: adapted.reply ?? same,
    target: hooks.target ?? same,
    refuse: adapted.refuse ?? same,
    idStart: hooks.idStart ?? same,
    assignId: hooks.assignId ?? same,
    copies: hooks.copies ?? same,
  };
}
