#!/usr/bin/env node
// The command from a clone (npm run conformance): the compiled dist/, as the installed package runs it,
// never a TypeScript loader at run time (tsx cost a run about 0.35 s of CPU, and every worker compiled the
// sources again). dist/ is compiled first when a source is newer (scripts/prepare.mjs: incrementally,
// quietly, in a second or two), so a developer who edits src/ runs their change; up to date, the check
// costs a few milliseconds.
import process from 'node:process';
import { ensureBuilt } from '../../scripts/prepare.mjs';

if (ensureBuilt({ quiet: true }) !== 0) process.exit(2);
await import('../../dist/bin/cli.js');
