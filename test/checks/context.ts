import type { CheckContext } from '../../src/checks/index.ts';
import { createContract } from '../../src/contract/index.ts';

export const contract = createContract();

/** 2025-01-01T12:00:00Z: before getPet's removal date. */
export const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
export const AFTER_SUNSET = Date.UTC(2031, 0, 1);

export function rateLimitHeaders(now = NOW): Record<string, string> {
  return { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(Math.floor(now / 1000) + 30) };
}

/**
 * A well-formed listPets 200 unless overridden; `body` given as a value is serialised into `text`.
 * Every check passes on the default, so each test changes exactly what it is about.
 */
export function ctx(overrides: Partial<CheckContext> & { json?: unknown } = {}): CheckContext {
  const { json, ...rest } = overrides;
  const now = rest.now ?? NOW;
  const base: CheckContext = {
    operationId: 'listPets',
    method: 'GET',
    url: 'http://target.example/v1/pets',
    status: 200,
    headers: { 'content-type': 'application/json', ...rateLimitHeaders(now) },
    text: '[]',
    body: [],
    isJson: true,
    contract,
    now,
  };
  const merged = { ...base, ...rest };
  if (json !== undefined) {
    merged.body = json;
    merged.text = JSON.stringify(json, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
    merged.isJson = true;
  }
  return merged;
}

/** Headers of the default context with some replaced (undefined removes one). */
export function headers(changes: Record<string, string | undefined>, now = NOW): Record<string, string> {
  const out: Record<string, string> = { 'content-type': 'application/json', ...rateLimitHeaders(now) };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  return out;
}

export const ERROR_BODY = (status: number) => ({ code: 'some_code', message: 'Something went wrong', status });
