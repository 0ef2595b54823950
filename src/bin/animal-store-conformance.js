#!/usr/bin/env node
// The command from a clone (npm run conformance): the TypeScript sources run through tsx, so there is no
// build step to forget. The installed package runs the compiled dist/bin/cli.js instead.
//
// Start-up: tsx's loader hooks answer every import from a separate thread, which roughly triples the
// time node takes to load vitest, vite and the other dependencies. They are plain JavaScript, so they are
// loaded first, without the hooks; only the project's own TypeScript pays for them.
// Asking for help or the version loads none of them.
const info = process.argv.slice(2).some((arg) => ['--help', '-h', '--version', '-V'].includes(arg)) || process.argv[2] === 'help';
// undici (a remote target's preflight), yaml and ajv (read from the derived cache) are loaded only when a
// run needs them, yaml and ajv through require(), which the hooks do not answer.
if (!info) await Promise.all(['vitest/node', 'lossless-json', 'dotenv'].map((id) => import(id)));
const { register } = await import('tsx/esm/api');
register();
await import('./cli.ts');
