// The table of what the interface leaves open, as docs/architecture.md shows it, made from the catalog's
// `open:` list (spec/requirements.yaml): the one home of those facts. scripts/write-open-table.ts writes
// it between the markers; test/architecture/open-table.test.ts fails when the page is stale.
import type { Catalog } from '../src/catalog/catalog.ts';

export const OPEN_TABLE_BEGIN = '<!-- open-table: generated from spec/requirements.yaml by `npm run docs:open`; edit the catalog, not this table -->';
export const OPEN_TABLE_END = '<!-- open-table: end -->';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** One row a question: what the interface does not say, what a valid server may do (the catalog's items, as written there), the requirements it bears on. */
export function openTable(catalog: Pick<Catalog, 'open'>): string {
  const rows = catalog.open.map(
    (question) => `| ${cell(question.question)} | ${cell(question.accepts.join(', '))} | ${question.appliesTo.map((id) => `\`${id}\``).join(', ')} |`,
  );
  return ['| the interface does not say… | a valid server may… | requirements |', '|---|---|---|', ...rows].join('\n');
}

/** The page with the block between the markers replaced by `table`; an error when the markers are missing. */
export function withOpenTable(page: string, table: string): string {
  const begin = page.indexOf(OPEN_TABLE_BEGIN);
  const end = page.indexOf(OPEN_TABLE_END);
  if (begin < 0 || end < begin) throw new Error(`the page has no open-table block: add the two markers (${OPEN_TABLE_BEGIN} … ${OPEN_TABLE_END})`);
  return `${page.slice(0, begin + OPEN_TABLE_BEGIN.length)}\n${table}\n${page.slice(end)}`;
}
