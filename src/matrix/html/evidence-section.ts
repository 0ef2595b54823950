import { type SafeHtml, html, when } from '../../report/html/safe-html.ts';
import type { Matrix } from '../matrix-types.ts';
import { STATUS_WORDS, columnLabel } from '../labels.ts';
import { evidenceAnchor, rowAnchor } from './matrix-table.ts';

/**
 * Every failing, warning or deviating cell's evidence, in the page itself: the failure, the request it
 * was decided on and the curl line that reproduces it; the bundle's own report has the full exchange.
 */
export function evidenceSection(matrix: Matrix): SafeHtml | undefined {
  const items = matrix.implementations.flatMap((column) =>
    matrix.requirements.flatMap((row, index) => {
      const cell = row.cells.find((c) => c.column === column.key);
      return cell?.evidence ? [{ column, row, index, cell, evidence: cell.evidence }] : [];
    }),
  );
  if (items.length === 0) return undefined;
  return html`<section aria-labelledby="evidence-title">
<h2 id="evidence-title">Failure evidence</h2>
<p class="legend">Each failing cell links here. Replace $API_KEY with a key of the implementation to run a curl line.</p>
${items.map(({ column, row, index, cell, evidence }) => {
  const link = column.reportLink ? `${column.reportLink}#req-${encodeURIComponent(row.id)}` : undefined;
  return html`<article class="evidence evidence-${cell.status}" id="${evidenceAnchor(column.key, index)}">
<h4>${STATUS_WORDS[cell.status].symbol} <a href="#${rowAnchor(index)}">${row.id}</a> ${row.level} · ${columnLabel(column)}${when(
    column.trust === 'not-verified',
    () => html` <span class="trust trust-not-verified">NOT VERIFIED</span>`,
  )}</h4>
${when(cell.reason !== undefined && cell.status === 'deviation', () => html`<p><strong>Declared deviation:</strong> ${cell.reason}</p>`)}
<p class="failure-message">${evidence.message}</p>
${when(evidence.expected !== undefined, () => html`<p><strong>Expected:</strong> ${evidence.expected}</p>`)}
${when(evidence.actual !== undefined, () => html`<p><strong>Actual:</strong> ${evidence.actual}</p>`)}
${when(evidence.request !== undefined, () => html`<p><strong>Request:</strong> <code>${evidence.request}</code>${evidence.status !== undefined ? ` → ${evidence.status}` : ''}</p>`)}
${when(evidence.counterexample !== undefined, () => html`<p><strong>Counterexample:</strong> <code>${evidence.counterexample}</code></p>`)}
${when(evidence.curl !== undefined, () => html`<pre class="curl">${evidence.curl}</pre>`)}
<p class="small muted">${evidence.more > 0 ? `${evidence.more} more failure${evidence.more === 1 ? '' : 's'} of ${row.id} in this report. ` : ''}${when(
    link !== undefined,
    () => html`<a href="${link}">The full exchange in its report</a>`,
  )}</p>
</article>`;
})}
</section>`;
}
