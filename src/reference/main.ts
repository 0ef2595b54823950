import { runStandalone } from './run-standalone.ts';

/** `npm run reference`: the reference server on its own, until SIGINT or SIGTERM. */
const code = await runStandalone(process.argv.slice(2), process.env);
if (code !== undefined) process.exitCode = code;
