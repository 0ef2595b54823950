import { parseArgs } from 'node:util';
import { HarnessError, isHarnessError } from '../errors.ts';
import { MIN_RATE_WINDOW_S } from '../config/rate-window-option.ts';
import type { ApiKey } from './api-keys.ts';
import { maskKey, parseApiKeys } from './startup/key-config.ts';
import type { ReferenceOptions } from './reference-options.ts';
import { type ReferenceServer, startReferenceServer } from './server.ts';
import { type VariantName, combineVariants } from './variants.ts';

/*
 * The reference server on its own: its options (flags over environment over defaults), its usage, what
 * it prints on start, and serving until a signal. The CLI's `reference` command runs it.
 */

export interface StandaloneConfig {
  port: number;
  host: string;
  /** undefined: generate demo keys. */
  keys: ApiKey[] | undefined;
  /** Named faults (--faults) and valid variants (--variants): the embedded reference of a run, started again. */
  faults: string[];
  variants: string[];
  /** The short rate-limit window, in seconds (--window; a minute unless shortened). */
  windowSeconds: number;
}

/** The longest short window: a minute, the interface's (the day window stays a day). */
const MAX_WINDOW_SECONDS = 60;

export const USAGE = `Usage: npm run reference -- [--port N] [--host H] [--window S] [--faults a,b] [--variants c,d]
       npx animal-store-conformance reference [the same options]

Serves the Animal Store reference implementation at http://H:N/v1 (default 127.0.0.1:8080).
  --port N   port to listen on (env PORT; 0 picks a free port)
  --host H   address to listen on (default 127.0.0.1)
  --window S the per-minute limits apply to windows of S seconds, 1 to 60 (env REFERENCE_WINDOW_SECONDS;
             default 60): a client sees its 429 and the window's turn within seconds; the suite
             judges windows of 2 s or more (--rate-window)
  --faults   named faults to inject (src/reference/faults), as a run's --reference-faults
  --variants liberties the interface allows (src/reference/variants.ts), as --reference-variants
Keys: REFERENCE_API_KEYS="key:plan[:perMinute:perDay],…" (plans: free, pro, business, enterprise;
enterprise needs the numbers). Without it, one demo key per plan is generated and printed.`;

/** Flags over environment over defaults; throws ERR_CONFIG with a one-line message. */
export function readStandaloneConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): StandaloneConfig | 'help' {
  let values: { port?: string; host?: string; window?: string; help?: boolean; faults?: string; variants?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        window: { type: 'string' },
        faults: { type: 'string' },
        variants: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new HarnessError('ERR_CONFIG', (error as Error).message);
  }
  if (values.help) return 'help';
  const portText = values.port ?? env.PORT ?? '8080';
  if (!/^\d+$/.test(portText) || Number(portText) > 65_535) {
    throw new HarnessError('ERR_CONFIG', `port must be an integer from 0 to 65535, got "${portText}"`);
  }
  const windowText = values.window ?? env.REFERENCE_WINDOW_SECONDS ?? String(MAX_WINDOW_SECONDS);
  if (!/^\d+$/.test(windowText) || Number(windowText) < 1 || Number(windowText) > MAX_WINDOW_SECONDS) {
    throw new HarnessError('ERR_CONFIG', `window must be a whole number of seconds from 1 to ${MAX_WINDOW_SECONDS}, got "${windowText}"`);
  }
  const keysText = env.REFERENCE_API_KEYS?.trim();
  const keys = keysText ? parseApiKeys(keysText) : undefined;
  if (keys?.length === 0) throw new HarnessError('ERR_CONFIG', 'REFERENCE_API_KEYS holds no key');
  const list = (text: string | undefined) =>
    (text ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return {
    port: Number(portText),
    host: values.host ?? '127.0.0.1',
    keys,
    faults: list(values.faults),
    variants: list(values.variants),
    windowSeconds: Number(windowText),
  };
}

/**
 * What the standalone server prints: the base URL, then each key's plan and limits (per its window of
 * `windowSeconds`); generated keys in full only.
 */
export function describeServer(server: ReferenceServer, windowSeconds = MAX_WINDOW_SECONDS): string[] {
  const lines = [`Animal Store reference server: ${server.url}`];
  lines.push(
    server.generatedKeys ? 'API keys, generated for this run (set REFERENCE_API_KEYS=key:plan,… to choose your own):' : 'API keys from REFERENCE_API_KEYS:',
  );
  const window = windowSeconds === MAX_WINDOW_SECONDS ? 'min' : `${windowSeconds} s`;
  for (const key of server.keys) {
    const shown = server.generatedKeys ? key.key : maskKey(key.key);
    lines.push(`  ${key.plan.padEnd(10)} ${`${key.perMinute}/${window}`.padEnd(12)} ${`${key.perDay}/day`.padEnd(14)} ${shown}`);
  }
  lines.push('Send them as Authorization: Bearer <API_KEY>. Stop with Ctrl+C.');
  // A server may have any window, but the suite cannot judge this one: say so before a run is refused.
  if (windowSeconds < MIN_RATE_WINDOW_S) {
    lines.push(
      `Note: the conformance suite judges windows of ${MIN_RATE_WINDOW_S} s or more (--rate-window): X-RateLimit-Reset counts whole seconds, and a window of ${windowSeconds} s cannot be told from the next.`,
    );
  }
  return lines;
}

/**
 * The reference server on its own until SIGINT or SIGTERM (the CLI's `reference` command, which
 * `npm run reference` runs). Resolves with an exit code when it could not start or was asked for help;
 * otherwise it serves until a signal ends the process.
 */
export async function runStandalone(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number | undefined> {
  let config;
  try {
    config = readStandaloneConfig(argv, env);
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    process.stderr.write(`reference server: ${error.message}\n`);
    return 2;
  }
  if (config === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let server;
  try {
    server = await startReferenceServer({
      // The reference refuses a fault or variant name it does not know, listing the names (ERR_CONFIG).
      ...combineVariants(...(config.variants as VariantName[])),
      faults: config.faults as ReferenceOptions['faults'],
      port: config.port,
      host: config.host,
      rateWindowMs: config.windowSeconds * 1000,
      ...(config.keys ? { keys: config.keys } : {}),
    });
  } catch (error) {
    process.stderr.write(`reference server: cannot start: ${(error as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`${describeServer(server, config.windowSeconds).join('\n')}\n`);
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return undefined;
}
