import type { Contract } from '../contract/index.ts';
import { HarnessError } from '../errors.ts';
import { INT64_MAX, INT64_MIN } from '../json.ts';
import type { NewPetRules } from './new-pet.ts';
import { DEFAULTS, type ReferenceOptions } from './options.ts';
import type { Limits } from './api-keys.ts';
import type { NewPetRecord, PetStore } from './store.ts';

/** The options that need checking or defaults, resolved once at start-up. */
export interface Settings {
  port: number;
  host: string;
  basePath: string;
  rateWindowMs: number;
  dayWindowMs: number;
  anonymousLimits: Limits;
  bodyLimit: number;
  maxConnections: number;
  idStart: bigint;
  delayMs: number;
  newPetRules: NewPetRules;
}

export function checkSettings(options: ReferenceOptions): Settings {
  const basePath = options.basePath ?? DEFAULTS.basePath;
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/') || /[?#\s]/.test(basePath))) {
    fail(`basePath must start with "/" and not end with one, got "${basePath}"`);
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`port must be an integer from 0 to 65535, got ${port}`);
  const idStart = options.idStart ?? DEFAULTS.idStart;
  if (idStart < INT64_MIN || idStart > INT64_MAX) fail('idStart must be an int64');
  const nameLength = options.nameLength;
  if (nameLength && !(nameLength.min >= 0 && nameLength.max >= nameLength.min)) fail('nameLength needs 0 <= min <= max');
  const anonymousLimits = options.anonymousLimits ?? DEFAULTS.anonymousLimits;
  return {
    port,
    host: options.host ?? DEFAULTS.host,
    basePath,
    rateWindowMs: positive('rateWindowMs', options.rateWindowMs ?? DEFAULTS.rateWindowMs),
    dayWindowMs: positive('dayWindowMs', options.dayWindowMs ?? DEFAULTS.dayWindowMs),
    anonymousLimits: {
      perMinute: positive('anonymousLimits.perMinute', anonymousLimits.perMinute),
      perDay: positive('anonymousLimits.perDay', anonymousLimits.perDay),
    },
    bodyLimit: positive('bodyLimit', options.bodyLimit ?? DEFAULTS.bodyLimit),
    maxConnections: positive('maxConnections', options.maxConnections ?? DEFAULTS.maxConnections),
    idStart,
    delayMs: options.delayMs === undefined || options.delayMs === 0 ? 0 : positive('delayMs', options.delayMs),
    newPetRules: options.defaultStatus !== undefined ? { defaultStatus: options.defaultStatus } : {},
  };
}

/** PetStatus values, read from the spec (never copied). */
export function petStatuses(contract: Contract): string[] {
  const values = contract.document.components.schemas.PetStatus?.enum;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    throw new HarnessError('ERR_SPEC', 'PetStatus in the spec is not a string enum');
  }
  return values as string[];
}

/** Fills the store with other people's pets: generated, or from the given source. */
export function seedStore(store: PetStore, seed: ReferenceOptions['seedPets'], statuses: readonly string[], now: number): void {
  if (seed === undefined) return;
  const source: Iterable<NewPetRecord> = typeof seed === 'number' ? generatedPets(seed, statuses) : seed();
  for (const pet of source) store.add(pet, now);
}

function* generatedPets(count: number, statuses: readonly string[]): Generator<NewPetRecord> {
  for (let i = 0; i < count; i++) {
    // Every fourth pet has no status, so that filters meet pets without one too.
    const status = i % 4 === 3 ? undefined : statuses[i % statuses.length];
    const pet = { name: `resident ${i}`, categoryId: (i % 9) + 1 };
    yield status === undefined ? pet : { ...pet, status };
  }
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) fail(`${name} must be a positive integer, got ${value}`);
  return value;
}

function fail(message: string): never {
  throw new HarnessError('ERR_CONFIG', `reference server: ${message}`);
}
