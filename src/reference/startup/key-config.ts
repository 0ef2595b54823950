import { randomBytes } from 'node:crypto';
import { HarnessError } from '../../errors.ts';
import { isPlanName } from '../../config/plans.ts';
import { type ApiKey, type ApiKeyConfig, type Limits, apiKeyOf } from '../api-keys.ts';

/*
 * The operator's key configuration, checked before any client connects: a key's plan and numbers,
 * REFERENCE_API_KEYS, the demo keys made when none is given, a key masked in a log line. A client sees
 * only the keys this hands to the server (api-keys.ts, mutated): mutation/targets.mjs leaves this folder
 * out, and test/reference/auth.test.ts and standalone.test.ts cover it.
 */

/** Demo Enterprise keys get generous limits so that benchmarks and long local runs are not throttled. */
const DEMO_ENTERPRISE: Limits = { perMinute: 100_000, perDay: 10_000_000 };

// Bearer tokens are token68 (RFC 9110 §11.2); a key outside it could not be sent as one.
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

export function resolveApiKey(config: ApiKeyConfig): ApiKey {
  const plan = config.plan.toLowerCase();
  if (!TOKEN68.test(config.key)) {
    throw new HarnessError('ERR_CONFIG', `API key ${maskKey(config.key)} is not a valid bearer token (token68 characters only)`);
  }
  if (!isPlanName(plan)) {
    const known = 'free, pro, business, enterprise';
    throw new HarnessError('ERR_CONFIG', `unknown plan "${config.plan}" for key ${maskKey(config.key)} (${known})`);
  }
  const resolved = apiKeyOf(config, plan);
  if (plan === 'enterprise' && (config.perMinute === undefined || config.perDay === undefined)) {
    throw new HarnessError('ERR_CONFIG', `the enterprise key ${maskKey(config.key)} needs perMinute and perDay`);
  }
  for (const name of ['perMinute', 'perDay'] as const) {
    const value = resolved[name];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new HarnessError('ERR_CONFIG', `${name} of key ${maskKey(config.key)} must be a positive integer, got ${value}`);
    }
  }
  return resolved;
}

/** Resolves a key list, refusing duplicates (two plans for one key would be ambiguous). */
export function resolveApiKeys(configs: readonly ApiKeyConfig[]): ApiKey[] {
  const seen = new Set<string>();
  return configs.map((config) => {
    if (seen.has(config.key)) throw new HarnessError('ERR_CONFIG', `API key ${maskKey(config.key)} is given twice`);
    seen.add(config.key);
    return resolveApiKey(config);
  });
}

/** Parses REFERENCE_API_KEYS: `key:plan[:perMinute:perDay],…`. Empty entries (a trailing comma) are skipped. */
export function parseApiKeys(text: string): ApiKey[] {
  const configs: ApiKeyConfig[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const parts = entry.split(':');
    const [key = '', plan = '', perMinute, perDay] = parts;
    if (parts.length !== 2 && parts.length !== 4) {
      const form = 'key:plan or key:plan:perMinute:perDay';
      throw new HarnessError('ERR_CONFIG', `REFERENCE_API_KEYS entry ${maskKey(key)} must be ${form}`);
    }
    configs.push({
      key,
      plan,
      ...(perMinute !== undefined ? { perMinute: parseCount(perMinute, 'perMinute', key) } : {}),
      ...(perDay !== undefined ? { perDay: parseCount(perDay, 'perDay', key) } : {}),
    });
  }
  return resolveApiKeys(configs);
}

function parseCount(text: string, name: string, key: string): number {
  if (!/^\d+$/.test(text)) {
    throw new HarnessError('ERR_CONFIG', `${name} of key ${maskKey(key)} must be a positive integer, got "${text}"`);
  }
  return Number(text);
}

/** One random key per plan, for a server started without keys. */
export function generateDemoKeys(): ApiKey[] {
  return (['free', 'pro', 'business', 'enterprise'] as const).map((plan) =>
    resolveApiKey({
      key: `demo-${plan}-${randomBytes(18).toString('base64url')}`,
      plan,
      ...(plan === 'enterprise' ? DEMO_ENTERPRISE : {}),
    }),
  );
}

/** `ab…yz`: enough to tell keys apart in a log, too little to use one. */
export function maskKey(key: string): string {
  return key.length <= 6 ? '…' : `${key.slice(0, 2)}…${key.slice(-2)}`;
}
