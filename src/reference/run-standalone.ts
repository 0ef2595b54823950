import { isHarnessError } from '../errors.ts';
import type { ReferenceOptions } from './options.ts';
import { startReferenceServer } from './server.ts';
import { USAGE, describeServer, readStandaloneConfig } from './standalone.ts';
import { type VariantName, combineVariants } from './variants.ts';

/**
 * The reference server on its own until SIGINT or SIGTERM (`npm run reference`, and the CLI's
 * `reference` command). Resolves with an exit code when it could not start or was asked for help;
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
      ...(config.keys ? { keys: config.keys } : {}),
    });
  } catch (error) {
    process.stderr.write(`reference server: cannot start: ${(error as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`${describeServer(server).join('\n')}\n`);
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return undefined;
}
