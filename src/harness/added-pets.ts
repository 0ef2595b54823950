import { appendFileSync, readFileSync } from 'node:fs';
import type { Exchange } from '../client/exchange.ts';
import { parseJson } from '../json.ts';
import { toPetRecord } from '../pets.ts';

/**
 * The pets the run's key has added, in every worker: each createPet the target answered 201 with a Pet
 * is one line of the run directory's ledger (its id and the status the target says it stored). A pet a
 * server acknowledged exists from then on: the interface has no operation that removes one, so any
 * later list that is provably complete holds it (CON-003). Other keys' pets are left out: a server may
 * keep one store per key.
 */
export interface AddedPet {
  id: bigint;
  status: string | undefined;
}

export const ADDED_PETS_FILE = 'added-pets.ledger';

/** Appends the pet a createPet exchange acknowledged, if it did; one short line, so concurrent appends stay whole. */
export function recordAddedPet(ledgerPath: string, exchange: Exchange): void {
  const response = exchange.response;
  if (exchange.operationId !== 'createPet' || response?.status !== 201 || response.body === undefined || response.bodyTruncated) return;
  let pet;
  try {
    pet = toPetRecord(parseJson(response.body));
  } catch {
    return;
  }
  if (pet) appendFileSync(ledgerPath, `${pet.id} ${JSON.stringify(pet.status ?? null)}\n`);
}

/** Every pet recorded so far, once each (a pet acknowledged twice is one pet). */
export function readAddedPets(ledgerPath: string): AddedPet[] {
  let text: string;
  try {
    text = readFileSync(ledgerPath, 'utf8');
  } catch {
    return [];
  }
  const byId = new Map<bigint, AddedPet>();
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const id = BigInt(line.slice(0, space));
    const status = JSON.parse(line.slice(space + 1)) as string | null;
    byId.set(id, { id, status: status ?? undefined });
  }
  return [...byId.values()];
}
