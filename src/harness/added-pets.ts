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
}

export const ADDED_PETS_FILE = 'added-pets.ledger';

/**
 * Appends the pet a createPet exchange acknowledged, if it did; one short line, so concurrent appends stay
 * whole. The ledger is the run's one sequence of creates across files: CON-003's rule `added-pets-listed`
 * reads it while the test runs, and re-judging reads the same creates from the log.
 */
export function recordAddedPet(ledgerPath: string, exchange: Exchange): void {
  const line = addedPetLine(exchange);
  if (line !== undefined) appendFileSync(ledgerPath, line);
}

/** The ledger's line for the pet a createPet exchange acknowledged, or undefined when it added none. */
function addedPetLine(exchange: Exchange): string | undefined {
  const response = exchange.response;
  if (exchange.operationId !== 'createPet' || !acknowledgesCreate(response?.status) || response?.body === undefined || response.bodyTruncated) return undefined;
  let pet;
  try {
    pet = toPetRecord(parseJson(response.body));
  } catch {
    return undefined;
  }
  return pet ? `${pet.id} ${exchange.startedAt + Math.max(0, exchange.durationMs)} ${JSON.stringify(pet.status ?? null)}\n` : undefined;
}

/** The ledger of one suite file: what it records, and every file's pets as it reads them. */
export interface AddedPetsLedger {
  record(exchange: Exchange): void;
  read(): AddedPet[];
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
    record(exchange) {
      const line = addedPetLine(exchange);
      if (line === undefined) return;
      if (batched) pending += line;
      else appendFileSync(path, line);
    },
    read: () => addedPetsOf(ledgerText(path) + pending),
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

function addedPetsOf(text: string): AddedPet[] {
  const byId = new Map<bigint, AddedPet>();
  for (const line of text.split('\n')) {
    const match = /^(-?\d+) (\S+) (.*)$/.exec(line);
    if (!match) continue;
    const id = BigInt(match[1] ?? '');
    const answeredAt = Number(match[2]);
    const status = JSON.parse(match[3] ?? 'null') as string | null;
    // Held to lists from its first answer on, with the status it was last acknowledged with.
    const earlier = byId.get(id);
    byId.set(id, { id, status: status ?? undefined, answeredAt: Math.min(answeredAt, earlier?.answeredAt ?? Infinity) });
  }
  return [...byId.values()];
}
