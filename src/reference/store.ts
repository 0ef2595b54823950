import { INT64_MAX } from '../text/json.ts';
import type { PetFields, RenderPet } from './pet-json.ts';
import type { PetWire } from './pet-wire.ts';
import { type IdSource, randomIds } from './random-ids.ts';

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
  /** Ids other than the sequence from idStart (a valid variant: the interface shows no id scheme). */
  ids?: IdSource;
  /** How a pet's JSON is rendered: renderPet, or what a fault or the extra-fields variant makes of it. */
  render: RenderPet;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

function mapKey(id: bigint): number | bigint {
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

/** The store's seams as it calls them: every one present (seams.ts fills in what no fault changes). */
export type StoreCalls = Required<Omit<StoreSeams, 'petWire'>>;

export function createPetStore(settings: StoreSettings, seams: StoreCalls): PetStore {
  const list: StoredPet[] = [];
  let created = 0;
  let next = seams.idStart(settings.idStart);
  // While the pet at place k of the list has id first + k (the sequence, one write a pet: every correct
  // server with the default id scheme), a pet is found by its place and the store keeps no map: an
  // entry a pet was about a seventh of its memory, and a hash a create. The first pet that breaks the
  // pattern (another id scheme, a fault's ids or copies) builds the map from the list, kept from then on.
  const first = next;
  /** The id the next pet must have for the list to stay dense: first + list.length while it is. */
  let expected = first;
  // Keyed by number while the id is a safe integer: V8 hashes small numbers far faster than bigint.
  let byId: Map<number | bigint, StoredPet> | undefined;

  function get(id: bigint): StoredPet | undefined {
    if (byId !== undefined) return byId.get(mapKey(id));
    // No bounds to check: an id outside the list is a place the list does not have (negative, or past
    // its end, where no rounding of a large difference lands inside it), which reads undefined.
    return list[Number(id - first)];
  }
  const taken = (id: bigint) => get(id) !== undefined;

  function mapOf(pets: readonly StoredPet[]): Map<number | bigint, StoredPet> {
    const map = new Map<number | bigint, StoredPet>();
    for (const pet of pets) map.set(mapKey(pet.id), pet);
    return map;
  }

  const sequence: IdSource = (isTaken) => {
    // Past int64 (a sequence started near its end) the ids go on at random: any unused int64.
    return next <= INT64_MAX ? next++ : randomIds(isTaken);
  };
  const ids = settings.ids ?? sequence;

  function add(input: NewPetRecord, now: number): StoredPet {
    const index = created++;
    const id = seams.assignId(ids(taken), index);
    // One object shape for every pet (status may be undefined) keeps the store's accesses monomorphic.
    const pet = { id, name: input.name, categoryId: input.categoryId, status: input.status, index, json: '' };
    pet.json = settings.render(pet, now);
    const copies = seams.copies(1);
    if (byId === undefined && (copies !== 1 || id !== expected)) byId = mapOf(list);
    for (let i = 0; i < copies; i++) list.push(pet);
    if (byId === undefined) expected++;
    else if (copies > 0) byId.set(mapKey(id), pet);
    return pet;
  }

  return {
    get size() {
      return list.length;
    },
    get,
    all: () => list,
    add,
  };
}
