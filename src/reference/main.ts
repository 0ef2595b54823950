import { isHarnessError } from '../errors.ts';
import { startReferenceServer } from './server.ts';
import { USAGE, describeServer, readStandaloneConfig } from './standalone.ts';

/** `npm run reference`: the reference server on its own, until SIGINT or SIGTERM. */
async function main(): Promise<void> {
  let config;
  try {
    config = readStandaloneConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    process.stderr.write(`reference server: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  if (config === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let server;
  try {
    server = await startReferenceServer({ port: config.port, host: config.host, ...(config.keys ? { keys: config.keys } : {}) });
  } catch (error) {
    process.stderr.write(`reference server: cannot start: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stdout.write(`${describeServer(server).join('\n')}\n`);
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
