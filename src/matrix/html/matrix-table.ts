import { type SafeHtml, html, when } from '../../report/html/safe-html.ts';
import type { Matrix, MatrixCell, MatrixColumn, MatrixRow } from '../matrix-types.ts';
import { CHANGE_WORDS, STATUS_WORDS, TRUST_WORDS, columnLabel, failsIn, shortFingerprint } from '../labels.ts';

/** Anchors are made from positions, never from a bundle's text. */
export const rowAnchor = (index: number): string => `row-${index}`;
export const evidenceAnchor = (column: string, index: number): string => `ev-${column}-${index}`;

/** The filters (shown only when the script runs) and the table, which scrolls inside its own box. */
export function matrixTable(matrix: Matrix): SafeHtml {
  const anyFailing = matrix.requirements.some((r) => r.failingAnywhere);
  const columns = matrix.implementations;
  const indexOf = new Map(matrix.requirements.map((r, i) => [r, i]));
  return html`<section aria-labelledby="matrix-title">
<h2 id="matrix-title">Requirement by requirement</h2>
<div class="matrix-controls" role="group" aria-label="Filter the requirements">
  <span class="filters"><button type="button" class="filter" data-scope="all" aria-pressed="${String(!anyFailing)}">All</button><button type="button" class="filter" data-scope="failing" aria-pressed="${String(anyFailing)}">Failing anywhere</button></span>
  <label><input type="checkbox" id="must-only"> MUST only</label>
  <label>Area <select id="area-filter"><option value="">all areas</option>${matrix.areas.map((a) => html`<option value="${a.id}">${a.id}</option>`)}</select></label>
  <span class="shown" id="shown-count" aria-live="polite"></span>
</div>
<p class="empty-result" id="empty-result" hidden>No requirement matches these filters.</p>
<div class="table-box" tabindex="0" role="region" aria-label="The matrix: requirements as rows, implementations as columns">
<table class="impl-matrix" id="matrix-table" data-initial-scope="${anyFailing ? 'failing' : 'all'}">
<thead><tr><th scope="col" class="corner">Requirement</th>${columns.map(columnHead)}<th scope="col">Across implementations</th></tr></thead>
${matrix.areas.map((area) => {
  const rows = matrix.requirements.filter((r) => r.area === area.id);
  if (rows.length === 0) return undefined;
  return html`<tbody class="area-group" data-area="${area.id}">
<tr class="area-head"><th scope="rowgroup" colspan="${columns.length + 2}">${area.id} · ${area.title}</th></tr>
${rows.map((row) => matrixRow(row, indexOf.get(row) ?? 0, columns))}
</tbody>`;
})}
<tfoot><tr class="col-counts"><th scope="row" class="req-cell">Counts</th>${columns.map((c) => html`<td>${columnCounts(c)}</td>`)}<td></td></tr></tfoot>
</table>
</div>
<p class="legend">${(['pass', 'fail', 'warn', 'deviation', 'untested', 'out-of-scope'] as const).map((s) => html`<span class="key">${STATUS_WORDS[s].symbol} ${STATUS_WORDS[s].word}</span> `)}
Counts across implementations are over the newest version of each implementation that is not marked NOT VERIFIED; "new" and "fixed" compare a version with the one before it.</p>
</section>`;
}

function columnHead(c: MatrixColumn): SafeHtml {
  return html`<th scope="col" class="${c.trust === 'not-verified' ? 'col-not-verified' : ''}" data-column="${c.key}">
<span class="col-name" title="${c.name}">${c.name}</span>
${when(c.version !== undefined, () => html`<span class="col-meta">version ${c.version}</span>`)}
<span class="col-meta verdict-text-${c.verdict}"><strong>${c.verdictLabel}</strong></span>
<span class="col-meta col-extra">${c.plan ?? 'no plan'} · ${c.profile}</span>
<span class="col-meta col-extra">${c.date.slice(0, 10)} · <span title="${c.suiteIdentity}">suite ${suiteShort(c.suiteIdentity)}</span></span>
<span class="col-meta"><span class="trust trust-${c.trust}">${TRUST_WORDS[c.trust]}</span>${when(c.signer !== undefined, () => html` <span class="fp" title="${c.signer?.fingerprint}">key ${shortFingerprint(c.signer?.fingerprint ?? '')}</span>`)}</span>
${when(c.shardsTrusted === true, () => html`<span class="col-meta" title="merged from shards nobody authenticated (--trust-shards)">shards taken on trust</span>`)}
</th>`;
}

/** A digest's first 12 digits; a name@version identity (no digest recorded) as its version. */
function suiteShort(identity: string): string {
  const at = identity.lastIndexOf('@');
  return at > 0 ? `v${identity.slice(at + 1)}` : identity.slice(0, 12);
}

function matrixRow(row: MatrixRow, index: number, columns: readonly MatrixColumn[]): SafeHtml {
  const failingClass = row.counts.failing > 0 ? 'row-count-failing' : '';
  return html`<tr class="req-row" id="${rowAnchor(index)}" data-area="${row.area}" data-level="${row.level}" data-failing="${String(row.failingAnywhere)}">
<th scope="row" class="req-cell"><a href="#${rowAnchor(index)}">${row.id}</a> <span class="level level-${row.level}">${row.level}</span><span class="req-text" title="${row.text}">${row.text.length > 70 ? `${row.text.slice(0, 68)}…` : row.text}</span></th>
${row.cells.map((cell, i) => matrixCell(cell, index, columns[i]))}
<td class="row-count ${failingClass}">${row.counts.of === 0 ? '' : failsIn(row.counts.failing, row.counts.of)}</td>
</tr>`;
}

function matrixCell(cell: MatrixCell, index: number, column: MatrixColumn | undefined): SafeHtml {
  const { symbol, word } = STATUS_WORDS[cell.status];
  const title = [`${column ? columnLabel(column) : cell.column}: ${cell.verdict}`, cell.reason, cell.evidence?.message].filter(Boolean).join(' — ');
  const text = cell.evidence ? html`<a href="#${evidenceAnchor(cell.column, index)}">${symbol} ${word}</a>` : html`${symbol} ${word}`;
  const notVerified = column?.trust === 'not-verified' ? ' col-not-verified' : '';
  return html`<td class="cell cell-${cell.status}${notVerified}" data-status="${cell.status}" data-column="${cell.column}" title="${title.slice(0, 400)}">${text}${when(
    cell.change !== undefined,
    () => html`<span class="change change-${cell.change}">${cell.change ? CHANGE_WORDS[cell.change] : ''}</span>`,
  )}</td>`;
}

function columnCounts(c: MatrixColumn): string {
  const part = (n: number, s: 'pass' | 'fail' | 'warn' | 'deviation' | 'untested') => `${STATUS_WORDS[s].symbol}${n}`;
  return [
    part(c.counts.pass, 'pass'),
    part(c.counts.fail, 'fail'),
    part(c.counts.warn, 'warn'),
    part(c.counts.deviation, 'deviation'),
    part(c.counts.untested, 'untested'),
  ].join(' ');
}
