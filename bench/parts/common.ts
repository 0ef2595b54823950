/** One line of the bench table. */
export interface Row {
  measure: string;
  value: string;
  notes: string;
}

/** The key of the bench's reference child (an Enterprise key with limits no bench reaches). */
export const BENCH_KEY = 'bench-key';

export const BENCH_KEY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  authorization: `Bearer ${BENCH_KEY}`,
  accept: 'application/json',
});

export const NEW_PET_BODY = JSON.stringify({ name: 'bench-pet', categoryId: 1, status: 'available' });

export function renderTable(rows: readonly Row[]): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  return ['| measure | value | notes |', '|---|---|---|', ...rows.map((r) => `| ${escape(r.measure)} | ${escape(r.value)} | ${escape(r.notes)} |`)].join('\n');
}
