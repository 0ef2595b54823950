import type { NewPetRules } from './new-pet.ts';
import { DEFAULTS, type ReferenceOptions } from './reference-options.ts';
import type { NewPetRecord, PetStore } from './store.ts';
import { type CheckedValues, checkedSettings } from './startup/settings-checks.ts';

/** The options that need checking or defaults, resolved once at start-up: the checked values and the rest. */
export interface Settings extends CheckedValues {
  host: string;
  newPetRules: NewPetRules;
}

/** The options resolved with their defaults, checked once at start-up (startup/settings-checks.ts). */
export function checkSettings(options: ReferenceOptions): Settings {
  return checkedSettings(
    {
      port: options.port ?? 0,
      host: options.host ?? DEFAULTS.host,
      basePath: options.basePath ?? DEFAULTS.basePath,
      rateWindowMs: options.rateWindowMs ?? DEFAULTS.rateWindowMs,
      dayWindowMs: options.dayWindowMs ?? DEFAULTS.dayWindowMs,
      anonymousLimits: options.anonymousLimits ?? DEFAULTS.anonymousLimits,
      bodyLimit: options.bodyLimit ?? DEFAULTS.bodyLimit,
      maxConnections: options.maxConnections ?? DEFAULTS.maxConnections,
      idStart: options.idStart ?? DEFAULTS.idStart,
      delayMs: options.delayMs ?? 0,
      newPetRules: { defaultStatus: options.defaultStatus },
    },
    options.nameLength,
  );
}

/** Fills the store with `count` generated pets of other people. */
export function seedStore(store: PetStore, count: number | undefined, statuses: readonly string[], now: number): void {
  if (count === undefined) return;
  for (const pet of generatedPets(count, statuses)) store.add(pet, now);
}

function* generatedPets(count: number, statuses: readonly string[]): Generator<NewPetRecord> {
  for (let i = 0; i < count; i++) {
    const pet = { name: `resident ${i}`, categoryId: (i % 9) + 1 };
    // Every fourth pet has no status, so that filters meet pets without one too.
    yield i % 4 === 3 ? pet : { ...pet, status: statuses[i % statuses.length] };
  }
}
