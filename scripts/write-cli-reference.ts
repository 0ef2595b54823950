// Writes docs/reference/cli.md from the option table (npm run docs:cli); test/config/options.test.ts fails when it is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cliReferenceMarkdown } from '../src/cli/usage.ts';

writeFileSync(fileURLToPath(new URL('../docs/reference/cli.md', import.meta.url)), cliReferenceMarkdown());
