import { appendFileSync, readFileSync } from 'node:fs';
import type { Exchange } from '../client/exchange.ts';
import { parseJson } from '../text/json.ts';
import { acknowledgesCreate, toPetRecord } from '../model/pets.ts';

/**
 * The pets the run's key has added, in every worker: each createPet the target answered 201 (or 200) with a Pet
 * is one line of the run directory's ledger (its id and the status the target says it stored). A pet a
 * server acknowledged exists from then on: the interface has no operation that removes one, so any
 * later list that is provably complete holds it (CON-003). Other keys' pets are left out: a server may
 * keep one store per key.
 */
export interface AddedPet {
  id: bigint;
  status: string | undefined;
  /** When its createPet was answered (epoch ms, as the log records it: sent at + duration). */
  answeredAt: number;
  /**
   * The number (in its file) of a create whose Pet the log does not keep whole: its record was redacted
   * (it held text like the API key: a target can make it so) or cut. The pet is read as the client
   * received it, so a list that drops it still fails; a pass that counts it cannot be proven from the log.
   */
  unkept?: number;
}

export const ADDED_PETS_FILE = 'added-pets.ledger';

/** The answer as the client received it, beside its record: its body as the client read it. */
export interface ReceivedAnswer {
  body: unknown;
}

/**
 * Appends the pet a createPet exchange acknowledged, if it did; one short line, so concurrent appends stay
 * whole. The ledger is the run's one sequence of creates across files: CON-003's rule `added-pets-listed`
 * reads it while the test runs, and re-judging reads the same creates from the log.
 */
export function recordAddedPet(ledgerPath: string, exchange: Exchange, received?: ReceivedAnswer): void {
  const line = addedPetLine(exchange, received);
  if (line !== undefined) appendFileSync(ledgerPath, line);
}

/**
 * The ledger's line for the pet a createPet exchange acknowledged, or undefined when it added none: read
 * from its record, or, where the record does not keep the Pet whole, from the answer as received, marked
 * so (`unkept#<seq>`). Without the answer as received such a create adds no pet the rule could hold a
 * list to: it is marked all the same, so that a pass never rests on a create the ledger could not read.
 */
function addedPetLine(exchange: Exchange, received: ReceivedAnswer | undefined): string | undefined {
  const response = exchange.response;
  if (exchange.operationId !== 'createPet' || !acknowledgesCreate(response?.status) || response?.body === undefined) return undefined;
  const answeredAt = exchange.startedAt + Math.max(0, exchange.durationMs);
  if (response.redacted === true || response.bodyTruncated === true) {
    const pet = received === undefined ? undefined : toPetRecord(received.body);
    return `${pet ? pet.id : '-'} ${answeredAt} unkept#${exchange.seq} ${JSON.stringify(pet?.status ?? null)}\n`;
  }
  let pet;
  try {
    pet = toPetRecord(parseJson(response.body));
  } catch {
    return undefined;
  }
  return pet ? `${pet.id} ${answeredAt} ${JSON.stringify(pet.status ?? null)}\n` : undefined;
}

/** The ledger of one suite file: what it records, and every file's pets as it reads them. */
export interface AddedPetsLedger {
  record(exchange: Exchange, received?: ReceivedAnswer): void;
  read(): AddedPet[];
  /** The pets, and the creates acknowledged without a Pet the ledger could read (not even as received). */
  creates(): CreatesView;
  /** Writes what the file recorded and has not written yet (at the file's end, or when the worker exits). */
  flush(): void;
}

/**
 * The ledger at `path`, written at once, or (`batched`) kept in memory until flush: a batched file reads
 * its own pets at once and another worker's once that worker's file has ended. Batched is for the
 * embedded reference, where an append per create is the only file I/O of a request; a remote run's
 * workers see each other's pets as soon as they are acknowledged.
 */
export function createAddedPetsLedger(path: string, batched: boolean): AddedPetsLedger {
  let pending = '';
  return {
    record(exchange, received) {
      const line = addedPetLine(exchange, received);
      if (line === undefined) return;
      if (batched) pending += line;
      else appendFileSync(path, line);
    },
    read: () => addedPetsOf(ledgerText(path) + pending),
    creates: () => ledgerOf(ledgerText(path) + pending),
    flush() {
      if (pending.length === 0) return;
      appendFileSync(path, pending);
      pending = '';
    },
  };
}

function ledgerText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Every pet recorded so far, once each (a pet acknowledged twice is one pet, added when first answered). */
export function readAddedPets(ledgerPath: string): AddedPet[] {
  return addedPetsOf(ledgerText(ledgerPath));
}

/** Every pet of the ledger's text, and the creates it could not read (as `unreadable`). */
function ledgerOf(text: string): CreatesView {
  const byId = new Map<bigint, AddedPet>();
  const unreadable: CreatesView['unreadable'] = [];
  for (const line of text.split('\n')) {
    const match = /^(-?\d+|-) (\S+)(?: unkept#(\d+))? (.*)$/.exec(line);
    if (!match) continue;
    const answeredAt = Number(match[2]);
    const unkept = match[3] === undefined ? undefined : Number(match[3]);
    if (match[1] === '-') {
      if (unkept !== undefined) unreadable.push({ seq: unkept, answeredAt });
      continue;
    }
    const id = BigInt(match[1] ?? '');
    const status = JSON.parse(match[4] ?? 'null') as string | null;
    // Held to lists from its first answer on, with the status it was last acknowledged with.
    const earlier = byId.get(id);
    const pet: AddedPet = { id, status: status ?? undefined, answeredAt: Math.min(answeredAt, earlier?.answeredAt ?? Infinity) };
    // One create the log does not keep whole is enough: a pass that counts this pet is unproven.
    const unkeptSeq = unkept ?? earlier?.unkept;
    if (unkeptSeq !== undefined) pet.unkept = unkeptSeq;
    byId.set(id, pet);
  }
  return { pets: [...byId.values()], unreadable };
}

function addedPetsOf(text: string): AddedPet[] {
  return ledgerOf(text).pets;
}

/** The creates as a rule reads them (ExchangeLookup.addedPets): pets, and the creates no pet can be read from. */
interface CreatesView {
  pets: AddedPet[];
  unreadable: Array<{ seq: number; answeredAt: number }>;
}

/**
 * The ledger as one judgment reads it. `live`: every pet as the client received it, what the judgment
 * decides on while the test runs (a list that drops a pet the target acknowledged fails, however the log
 * keeps its create). `recorded`: as the log keeps them, as rejudge reads them, a create it does not keep
 * whole among the unreadable. `unkept`: how many such creates `live` read (each file numbers its own, so
 * a create is told apart by its number and when it was answered); a pass that read one is asked again on
 * `recorded` (unprovableRule).
 */
export function judgedCreates(ledger: Pick<AddedPetsLedger, 'creates'>): { live(): CreatesView; recorded(): CreatesView; unkept(): number } {
  const unkept = new Set<string>();
  return {
    live() {
      const { pets, unreadable } = ledger.creates();
      for (const pet of pets) if (pet.unkept !== undefined) unkept.add(`${pet.unkept} ${pet.answeredAt}`);
      for (const create of unreadable) unkept.add(`${create.seq} ${create.answeredAt}`);
      return { pets, unreadable: [] };
    },
    recorded() {
      const { pets, unreadable } = ledger.creates();
      const notKept = pets.flatMap((pet) => (pet.unkept === undefined ? [] : [{ seq: pet.unkept, answeredAt: pet.answeredAt }]));
      return { pets: pets.filter((pet) => pet.unkept === undefined), unreadable: [...notKept, ...unreadable] };
    },
    unkept: () => unkept.size,
  };
}
