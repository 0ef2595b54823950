import type { Contract } from '../../contract/index.ts';
import { HarnessError } from '../../errors.ts';
import { INT64_MAX, INT64_MIN } from '../../text/json.ts';
import type { Limits } from '../api-keys.ts';
import type { ReferenceOptions } from '../reference-options.ts';

/*
 * The checks of the reference's start-up options, made before it listens: each throws ERR_CONFIG on a
 * value no conformance run gives (the embedded run starts the reference with valid options), and no
 * client request reaches them. What the options resolve to, the defaults a client observes, is
 * settings.ts (mutated); mutation/targets.mjs leaves this folder out, and test/reference covers it.
 */

/** The values of the resolved settings (settings.ts) that can be invalid. */
export interface CheckedValues {
  port: number;
  basePath: string;
  rateWindowMs: number;
  dayWindowMs: number;
  anonymousLimits: Limits;
  bodyLimit: number;
  maxConnections: number;
  idStart: bigint;
  delayMs: number;
}

/** The resolved settings, returned unchanged once every value is valid. */
export function checkedSettings<S extends CheckedValues>(settings: S, nameLength: ReferenceOptions['nameLength']): S {
  const { basePath, port, idStart } = settings;
  if (basePath !== '' && (!basePath.startsWith('/') || basePath.endsWith('/') || /[?#\s]/.test(basePath))) {
    fail(`basePath must start with "/" and not end with one, got "${basePath}"`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`port must be an integer from 0 to 65535, got ${port}`);
  if (idStart < INT64_MIN || idStart > INT64_MAX) fail('idStart must be an int64');
  if (nameLength && !(nameLength.min >= 0 && nameLength.max >= nameLength.min)) fail('nameLength needs 0 <= min <= max');
  positive('rateWindowMs', settings.rateWindowMs);
  positive('dayWindowMs', settings.dayWindowMs);
  positive('anonymousLimits.perMinute', settings.anonymousLimits.perMinute);
  positive('anonymousLimits.perDay', settings.anonymousLimits.perDay);
  positive('bodyLimit', settings.bodyLimit);
  positive('maxConnections', settings.maxConnections);
  if (settings.delayMs !== 0) positive('delayMs', settings.delayMs);
  return settings;
}

/** PetStatus values, read from the spec (never copied); a spec without them cannot start the reference. */
export function petStatuses(contract: Contract): string[] {
  const values = contract.document.components.schemas.PetStatus?.enum;
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    throw new HarnessError('ERR_SPEC', 'PetStatus in the spec is not a string enum');
  }
  return values as string[];
}

/** Refuses a defaultStatus outside the spec's PetStatus. */
export function checkDefaultStatus(defaultStatus: string | undefined, statuses: readonly string[]): void {
  if (defaultStatus !== undefined && !statuses.includes(defaultStatus)) {
    fail(`defaultStatus must be one of ${statuses.join(', ')}`);
  }
}

function positive(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) fail(`${name} must be a positive integer, got ${value}`);
}

function fail(message: string): never {
  throw new HarnessError('ERR_CONFIG', `reference server: ${message}`);
}
