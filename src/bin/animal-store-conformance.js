#!/usr/bin/env node
// The package's bin: TypeScript sources run through tsx, so there is no build step to forget.
//
// Start-up: tsx's loader hooks answer every import from a separate thread, which roughly triples the
// time node takes to load vitest, vite and the other dependencies. They are plain JavaScript, so they are
// loaded first, without the hooks; only the project's own TypeScript pays for them.
await Promise.all(['vitest/node', 'undici', 'yaml', 'lossless-json', 'ajv/dist/2020.js', 'ajv-formats', 'dotenv'].map((id) => import(id)));
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../cli/main.ts');
const { consoleSafe } = await import('../console-text.ts');
// Open handles (keep-alive sockets, timers of a hung target) must not hold the exit code hostage.
// Anything that escapes is the suite's own failure: exit 2 (incomplete), never 1 (not conformant).
const code = await main(process.argv.slice(2)).catch((error) => {
  console.error(consoleSafe(`animal-store-conformance: internal error: ${error?.stack ?? error}`));
  return 2;
});
process.exit(code);
