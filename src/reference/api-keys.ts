import { randomBytes } from 'node:crypto';
import { HarnessError } from '../errors.ts';
import { type Limits, type PlanName, PLANS, isPlanName } from '../plans.ts';

export { type Limits, type PlanName, PLANS };

/** Demo Enterprise keys get generous limits so that benchmarks and long local runs are not throttled. */
const DEMO_ENTERPRISE: Limits = { perMinute: 100_000, perDay: 10_000_000 };

export interface ApiKeyConfig {
  key: string;
  /** Case-insensitive. */
  plan: PlanName | (string & {});
  /** Required for enterprise; overrides the plan's numbers otherwise. */
  perMinute?: number;
  perDay?: number;
}

export interface ApiKey extends Limits {
  readonly key: string;
  readonly plan: PlanName;
}

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
  const base = plan === 'enterprise' ? undefined : PLANS[plan];
  const perMinute = config.perMinute ?? base?.perMinute;
  const perDay = config.perDay ?? base?.perDay;
  if (perMinute === undefined || perDay === undefined) {
    throw new HarnessError('ERR_CONFIG', `the enterprise key ${maskKey(config.key)} needs perMinute and perDay`);
  }
  for (const [name, value] of [
    ['perMinute', perMinute],
    ['perDay', perDay],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new HarnessError('ERR_CONFIG', `${name} of key ${maskKey(config.key)} must be a positive integer, got ${value}`);
    }
  }
  return Object.freeze({ key: config.key, plan, perMinute, perDay });
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
