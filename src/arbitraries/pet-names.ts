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
