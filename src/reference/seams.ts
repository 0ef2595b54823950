import type { ValidationIssue } from '../contract/index.ts';
import type { KeyRecord, KeyRing } from './key-ring.ts';
import type { ListQuery, RawListQuery } from './list-query.ts';
import type { RateLimiterSeams } from './rate-limiter.ts';
import type { ErrorReplyFactory, OperationId, Reply } from './replies.ts';
import type { NewPetRecord, PetStoreView, StoreSeams, StoredPet } from './store.ts';

/*
 * The reference server's seams: the points where a named fault (faults/) may change what the correct
 * server does. The core owns them; faults/ implements them. The store and the rate limiter declare
 * their own seams beside their code, and FaultHooks gathers every seam in one type.
 */

/** What an auth fault sees of the request. */
export interface AuthAttempt {
  readonly authorization: string | undefined;
  /** The raw query string (no `?`). */
  readonly search: string;
  readonly ring: KeyRing;
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
 * correct server computed and returns the value to use, so several faults chain; a server with no
 * fault has no hooks at all and pays one `undefined` check per seam.
 */
export interface FaultHooks extends StoreSeams, RateLimiterSeams {
  /** routing: the base path the server answers under. */
  basePath?(basePath: string): string;
  /** auth: the key admitted by strict authentication, or undefined when it refused the request. */
  authenticate?(key: KeyRecord | undefined, attempt: AuthAttempt): KeyRecord | undefined;
  /** auth order: whether an error found in the request is answered before authentication is checked. */
  answerBeforeAuth?(answer: boolean, reply: Reply, operation: OperationId): boolean;
  /** validation: whether the request's Content-Type is accepted for a JSON body. */
  acceptMediaType?(accepted: boolean, contentType: string | undefined): boolean;
  /** validation: a NewPet made from a body that failed validation (undefined keeps the 400). */
  acceptInvalid?(accepted: NewPetRecord | undefined, body: unknown, issues: readonly ValidationIssue[]): NewPetRecord | undefined;
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
}
