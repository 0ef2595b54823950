// Writes the table of what the interface leaves open into docs/architecture.md, between its markers,
// from the catalog's `open:` list (npm run docs:open); test/architecture/open-table.test.ts fails when it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../src/catalog/catalog.ts';
import { openTable, withOpenTable } from './open-table.ts';

const page = fileURLToPath(new URL('../docs/architecture.md', import.meta.url));
writeFileSync(page, withOpenTable(readFileSync(page, 'utf8'), openTable(loadCatalog())));
