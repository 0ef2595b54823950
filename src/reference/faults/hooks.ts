import type { ValidationIssue } from '../../contract/index.ts';
import type { KeyRecord, KeyRing } from '../key-ring.ts';
import type { ListQuery, RawListQuery } from '../list-query.ts';
import type { PetRecord, PetWire } from '../pet-wire.ts';
import type { RateUsage } from '../rate-limiter.ts';
import type { ErrorReplyFactory, OperationId, Reply } from '../replies.ts';
import type { NewPetRecord, PetStoreView, StoredPet } from '../store.ts';

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
export interface FaultHooks {
  /** routing: the base path the server answers under. */
  basePath?(basePath: string): string;
  /** auth: the key admitted by strict authentication, or undefined when it refused the request. */
  authenticate?(key: KeyRecord | undefined, attempt: AuthAttempt): KeyRecord | undefined;
  /** auth order: whether an error found in the request is answered before authentication is checked. */
  answerBeforeAuth?(answer: boolean, reply: Reply, operation: OperationId): boolean;
  /** rate limiter: whether this request is refused. */
  refuse?(refused: boolean, usage: RateUsage): boolean;
  /** validation: whether the request's Content-Type is accepted for a JSON body. */
  acceptMediaType?(accepted: boolean, contentType: string | undefined): boolean;
  /** validation: a NewPet made from a body that failed validation (undefined keeps the 400). */
  acceptInvalid?(accepted: NewPetRecord | undefined, body: unknown, issues: readonly ValidationIssue[]): NewPetRecord | undefined;
  /** store: the NewPet as it is about to be stored. */
  newPet?(pet: NewPetRecord): NewPetRecord;
  /** store: the first id of the sequence. */
  idStart?(start: bigint): bigint;
  /** store: the id given to the pet created `index`-th. */
  assignId?(id: bigint, index: number): bigint;
  /** store: how many times a new pet is written to the list (0 loses the write). */
  copies?(copies: number): number;
  /** store: the pet getPet answers with. */
  findPet?(pet: StoredPet | undefined, store: PetStoreView): StoredPet | undefined;
  /** getPet: the id read from the path, undefined when it is not an int64. */
  petId?(id: bigint | undefined, raw: string): bigint | undefined;
  /** listPets: the interpreted query. */
  listQuery?(query: ListQuery, raw: RawListQuery): ListQuery;
  /** listPets: the pets a list is taken from, in creation order. */
  listSource?(pets: readonly StoredPet[]): readonly StoredPet[];
  /** serialisation: a pet's field texts, rendered once when it is stored. */
  petWire?(wire: PetWire, pet: PetRecord): PetWire;
  /** status, headers and body: the reply as it is about to be sent. */
  reply?(reply: Reply, context: ReplyContext): Reply;
}

export type FaultGroup =
  | 'status'
  | 'schema'
  | 'errors'
  | 'validation'
  | 'store'
  | 'limits'
  | 'auth'
  | 'rate-limit'
  | 'deprecation';

export interface FaultDefinition<Name extends string = string> {
  readonly name: Name;
  readonly group: FaultGroup;
  readonly description: string;
  /** Requirement ids whose tests a correct suite fails against a server with this fault. */
  readonly detectedBy: readonly string[];
  /** Only SHOULD requirements catch it: visible in --strict runs only. */
  readonly strictOnly?: boolean;
  /** Creates the fault's hooks for one server (a fault may keep per-server state in the closure). */
  readonly hooks: () => FaultHooks;
}

/** Keeps the literal name type while checking the shape. */
export function defineFault<const Name extends string>(definition: FaultDefinition<Name>): FaultDefinition<Name> {
  return definition;
}
