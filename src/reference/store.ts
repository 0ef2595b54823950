import { randomBytes } from 'node:crypto';
import { INT64_MAX } from '../json.ts';
import { type PetFields, type PetWire, renderPet, renderWire, toWire } from './pet-wire.ts';

/** A pet as accepted by createPet, before it has an id. */
export interface NewPetRecord {
  name: string;
  categoryId: bigint | number;
  status?: string;
}

export interface StoredPet extends PetFields {
  /** Position in creation order. */
  readonly index: number;
  /** The pet's JSON, rendered once at creation. */
  readonly json: string;
}

export interface PetStoreView {
  readonly size: number;
  get(id: bigint): StoredPet | undefined;
  /** Every stored pet in creation order (the list listPets reads). */
  all(): readonly StoredPet[];
}

export interface PetStore extends PetStoreView {
  add(pet: NewPetRecord, now: number): StoredPet;
}

export interface StoreSettings {
  idStart: bigint;
  idScheme: 'sequential' | 'random';
  /** Adds createdAt and tags to every pet (a valid variant: Pet may carry more fields). */
  extraPetFields: boolean;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

function mapKey(id: bigint): number | bigint {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: an id within 2^53 as a number or a bigint: the same JSON either way
  return id <= MAX_SAFE && id >= MIN_SAFE ? Number(id) : id;
}

/** The store's seams, where a fault may change what it does (see seams.ts). */
export interface StoreSeams {
  /** store: the first id of the sequence. */
  idStart?(start: bigint): bigint;
  /** store: the id given to the pet created `index`-th. */
  assignId?(id: bigint, index: number): bigint;
  /** store: how many times a new pet is written to the list (0 loses the write). */
  copies?(copies: number): number;
  /** serialisation: a pet's field texts, rendered once when it is stored. */
  petWire?(wire: PetWire, pet: PetFields): PetWire;
}

export function createPetStore(settings: StoreSettings, hooks: StoreSeams): PetStore {
  const list: StoredPet[] = [];
  // Keyed by number while the id is a safe integer: V8 hashes small numbers far faster than bigint.
  const byId = new Map<number | bigint, StoredPet>();
  let created = 0;
  let next = hooks.idStart ? hooks.idStart(settings.idStart) : settings.idStart;

  function freshId(): bigint {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral,UnaryOperator,UpdateOperator: only a valid variant takes this path (random ids), or an id sequence past int64
    if (settings.idScheme === 'sequential' && next <= INT64_MAX) return next++;
    // Random ids (also the fallback should a counter ever run past int64): any unused int64.
    // Stryker disable next-line BlockStatement,ConditionalExpression: only a valid variant takes this path (random ids)
    for (;;) {
      const id = randomBytes(8).readBigInt64BE();
      // Stryker disable next-line BooleanLiteral,ConditionalExpression: only a valid variant takes this path (random ids)
      if (!byId.has(mapKey(id))) return id;
    }
  }

  function add(input: NewPetRecord, now: number): StoredPet {
    // Stryker disable next-line UnaryOperator,UpdateOperator: the index only orders the pets by insertion; a decreasing sequence orders them the same
    const index = created++;
    let id = freshId();
    // Stryker disable next-line ConditionalExpression: only a fault hook takes this path
    if (hooks.assignId) id = hooks.assignId(id, index);
    // One object shape for every pet (status may be undefined) keeps the store's accesses monomorphic.
    // Stryker disable next-line StringLiteral: the JSON is rendered on the next line
    const pet = { id, name: input.name, categoryId: input.categoryId, status: input.status, index, json: '' };
    // Stryker disable next-line ConditionalExpression,LogicalOperator: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
    pet.json = hooks.petWire || settings.extraPetFields ? renderThroughWire(pet, now) : renderPet(pet);
    const copies = hooks.copies ? hooks.copies(1) : 1;
    for (let i = 0; i < copies; i++) list.push(pet);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: only a fault hook takes this path
    if (copies > 0) byId.set(mapKey(id), pet);
    return pet;
  }

  // Stryker disable next-line BlockStatement: only a fault or the extra-fields variant renders through the wire path; the correct server renders with renderPet
  function renderThroughWire(pet: PetFields, now: number): string {
    // Stryker disable next-line StringLiteral: only a valid variant takes this path (extra fields)
    const extra = settings.extraPetFields ? `,"createdAt":${JSON.stringify(new Date(now).toISOString())},"tags":[]` : undefined;
    const wire = toWire(pet, extra);
    return renderWire(hooks.petWire ? hooks.petWire(wire, pet) : wire);
  }

  return {
    // Stryker disable next-line BlockStatement: read by the standalone server and the project tests only
    get size() {
      return list.length;
    },
    get: (id) => byId.get(mapKey(id)),
    all: () => list,
    add,
  };
}
