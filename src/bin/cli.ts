#!/usr/bin/env node
// The package's executable. Installed, it runs compiled (dist/bin/cli.js): no TypeScript loader at start-up.
// From a clone, src/bin/animal-store-conformance.js compiles dist/ when a source is newer, then runs it.
import { main } from '../cli/main.ts';
import { consoleSafe } from '../text/console-text.ts';

// Open handles (keep-alive sockets, timers of a hung target) must not hold the exit code hostage.
// Anything that escapes is the suite's own failure: exit 2 (incomplete), never 1 (not conformant).
const code = await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(consoleSafe(`animal-store-conformance: internal error: ${(error as Error)?.stack ?? String(error)}`));
  return 2;
});
process.exit(code);
