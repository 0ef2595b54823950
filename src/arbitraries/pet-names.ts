import { createHmac } from 'node:crypto';

/**
 * Names people give animals. A pet the suite adds with one of these looks like any other client's: a
 * server cannot pick the suite's pets out by their name (the run's ledger of added pets, not the name,
 * says which pets the run added).
 */
export const REALISTIC_PET_NAMES: readonly string[] = Object.freeze([
  'Bella',
  'Max',
  'Luna',
  'Charlie',
  'Milo',
  'Daisy',
  'Rocky',
  'Coco',
  'Oscar',
  'Lola',
  'Nala',
  'Simba',
  'Pepper',
  'Biscuit',
  'Ziggy',
  'Willow',
  'Teddy',
  'Mochi',
  'Juniper',
  'Bruno',
]);

/** One realistic name, drawn with `random` (a test's seeded source), so a replay draws the same. */
export function realisticPetName(random: () => number): string {
  return REALISTIC_PET_NAMES[Math.floor(random() * REALISTIC_PET_NAMES.length)] ?? 'Bella';
}

/**
 * The name of a pet the run adds: a realistic name, a short tag only the run can compute (an HMAC, keyed
 * by the run's secret id, of `scope` and `count`: no two names of a run alike, none a server can tell from
 * a person's pet by a mark the suite always writes), then `label` when the caller needs one (a name of
 * Unicode, say). The run knows its pets by the ledger of added pets, and a test knows its own by the tag.
 */
export function runPetName(runSecret: string, scope: string, count: number, label = ''): string {
  const digest = createHmac('sha256', runSecret).update(`${scope}\n${count}`).digest();
  const name = REALISTIC_PET_NAMES[(digest[0] ?? 0) % REALISTIC_PET_NAMES.length] ?? 'Bella';
  const tag = digest.subarray(1, 4).toString('hex');
  return label === '' ? `${name} ${tag}` : `${name} ${tag} ${label}`;
}

/** A label that is only a requirement id (the default one) adds nothing a server could not read as the suite's. */
export function petNameLabel(label: string): string {
  return label.replace(/^[A-Z]{2,5}-\d{3}\b\s*/, '');
}
