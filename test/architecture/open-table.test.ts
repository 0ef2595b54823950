import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/catalog.ts';
import { OPEN_TABLE_BEGIN, OPEN_TABLE_END, openTable, withOpenTable } from '../../scripts/open-table.ts';

/**
 * What the interface leaves open has one home, the catalog's `open:` list; docs/architecture.md shows it
 * as a table made from it (npm run docs:open), never a hand copy that drifts.
 */
describe("architecture.md's table of what the interface leaves open", () => {
  const page = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');

  it('is the table the catalog makes (run npm run docs:open after editing spec/requirements.yaml)', () => {
    expect(page).toBe(withOpenTable(page, openTable(loadCatalog())));
  });

  it('has a row for every open question, naming the requirements it bears on', () => {
    const catalog = loadCatalog();
    const table = openTable(catalog);
    expect(table.split('\n').length).toBe(catalog.open.length + 2);
    for (const id of catalog.open.flatMap((question) => question.appliesTo)) expect(table).toContain(`\`${id}\``);
  });

  it('is found stale when the catalog gains a question, and refuses a page without the markers', () => {
    const catalog = loadCatalog();
    const grown = { open: [...catalog.open, { question: 'A new open question', accepts: ['either answer'], appliesTo: ['LIM-004'] }] };
    expect(withOpenTable(page, openTable(grown))).not.toBe(page);
    expect(() => withOpenTable(page.replace(OPEN_TABLE_END, ''), openTable(catalog))).toThrow(/no open-table block/);
    expect(page).toContain(OPEN_TABLE_BEGIN);
  });
});
