import { answeredPet } from '../checks/judgment-rules.ts';
import { originOf } from '../checks/rules/added-pets-rules.ts';
import type { AddedPetRecord } from '../checks/judgment-rules.ts';
import { acknowledgesCreate } from '../model/pets.ts';
import { type RecordedEntry, bodyReading } from './rejudge-har.ts';

/** The run's sequence of creates, read from the log: what CON-003's rule holds every complete list to. */
export interface LoggedCreates {
  pets: AddedPetRecord[];
  /**
   * Creates of the run's key answered 201 (or 200) whose Pet the log does not keep whole: cut, bytes not
   * matching their hash, or redacted (the answer held text like the key, which a target can arrange: its
   * record may not hold the id or the status it sent, so the rule reads no pet from it).
   */
  unreadable: Array<{ seq: number; answeredAt: number; origin: string }>;
  /** Some such create is summarised (a report directory's passing test): the rule is not decided on this log. */
  summarised: boolean;
}

/**
 * Every pet the run's key added, in any file: each createPet sent with the main key (the curl line's
 * `$API_KEY`) that the target answered 201 (or 200) with a Pet, as the workers' ledger records it while the run
 * goes (src/harness/added-pets.ts), with the time its answer arrived. A pet answered twice counts from
 * its first answer, with the status it was last acknowledged with. Each is held to lists of the store
 * it was sent to (its origin): a merged run of the embedded reference joins shards of separate stores.
 */
export function loggedCreates(entries: readonly RecordedEntry[]): LoggedCreates {
  const byId = new Map<string, AddedPetRecord>();
  const unreadable: LoggedCreates['unreadable'] = [];
  let summarised = false;
  for (const entry of entries) {
    if (entry.operationId !== 'createPet' || !acknowledgesCreate(entry.status) || entry.keyVariable !== 'API_KEY' || entry.raw) continue;
    const answeredAt = entry.startedAt + entry.durationMs;
    const origin = originOf(entry.url);
    if (entry.summarised) summarised = true;
    if (entry.summarised || entry.bodyCut || entry.bodyInexact || entry.redacted) {
      unreadable.push({ seq: entry.seq, answeredAt, origin });
      continue;
    }
    const reading = entry.text.length === 0 ? undefined : bodyReading(entry);
    const pet = reading?.ok ? answeredPet(reading.value) : undefined;
    if (!pet) continue;
    // As the ledger holds it: from its first answer on, with the status it was last acknowledged with.
    const key = `${origin} ${pet.id}`;
    const earlier = byId.get(key);
    byId.set(key, { ...pet, origin, answeredAt: Math.min(answeredAt, earlier?.answeredAt ?? Infinity) });
  }
  return { pets: [...byId.values()], unreadable, summarised };
}
