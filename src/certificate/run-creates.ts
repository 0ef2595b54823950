import { answeredPet } from '../checks/judgment-rules.ts';
import type { AddedPetRecord } from '../checks/judgment-rules.ts';
import { type RecordedEntry, bodyReading } from './rejudge-har.ts';

/** The run's sequence of creates, read from the log: what CON-003's rule holds every complete list to. */
export interface LoggedCreates {
  pets: AddedPetRecord[];
  /** Creates of the run's key answered 201 whose Pet the log does not keep whole (cut, or bytes not matching their hash). */
  unreadable: Array<{ seq: number; answeredAt: number }>;
  /** Some such create is summarised (a report directory's passing test): the rule is not decided on this log. */
  summarised: boolean;
}

/**
 * Every pet the run's key added, in any file: each createPet sent with the main key (the curl line's
 * `$API_KEY`) that the target answered 201 with a Pet, as the workers' ledger records it while the run
 * goes (src/harness/added-pets.ts), with the time its answer arrived. A pet answered twice counts from
 * its first answer, with the status it was last acknowledged with.
 */
export function loggedCreates(entries: readonly RecordedEntry[]): LoggedCreates {
  const byId = new Map<bigint, AddedPetRecord>();
  const unreadable: LoggedCreates['unreadable'] = [];
  let summarised = false;
  for (const entry of entries) {
    if (entry.operationId !== 'createPet' || entry.status !== 201 || entry.keyVariable !== 'API_KEY' || entry.raw) continue;
    const answeredAt = entry.startedAt + entry.durationMs;
    if (entry.summarised) summarised = true;
    if (entry.summarised || entry.bodyCut || entry.bodyInexact) {
      unreadable.push({ seq: entry.seq, answeredAt });
      continue;
    }
    const reading = entry.text.length === 0 ? undefined : bodyReading(entry);
    const pet = reading?.ok ? answeredPet(reading.value) : undefined;
    if (!pet) continue;
    // As the ledger holds it: from its first answer on, with the status it was last acknowledged with.
    const earlier = byId.get(pet.id);
    byId.set(pet.id, { ...pet, answeredAt: Math.min(answeredAt, earlier?.answeredAt ?? Infinity) });
  }
  return { pets: [...byId.values()], unreadable, summarised };
}
