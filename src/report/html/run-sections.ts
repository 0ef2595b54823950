import { referenceStartLine } from '../command-words.ts';
import type { ConformanceReport, CoverageCell } from '../report-types.ts';
import { copyBlock } from './exchange-view.ts';
import { formatDuration, formatInstant, grouped, plural } from './format.ts';
import { dailyQuotaText } from '../traffic.ts';
import { rateChart } from './rate-chart.ts';
import { type SafeHtml, html, when } from './safe-html.ts';

/** Operation × documented status: how much of the interface the run actually exercised. */
export function coverageSection(report: ConformanceReport): SafeHtml {
  const statuses = [...new Set(report.coverage.flatMap((row) => row.cells.map((c) => c.status)))].sort();
  const cell = (c: CoverageCell | undefined) => {
    if (!c) return html`<td class="cov-none" title="not documented">—</td>`;
    if (!c.documented) return html`<td class="cov-undocumented" title="status not documented for this operation">${c.count}†</td>`;
    const mark = c.notStated ? '*' : '';
    if (c.count === 0) return html`<td class="cov-unseen" title="documented, never observed">0${mark}</td>`;
    return html`<td class="cov-seen">${grouped(c.count)}${mark}</td>`;
  };
  return html`<section class="coverage" aria-labelledby="coverage-title">
  <h2 id="coverage-title">Coverage of the interface</h2>
  <table class="matrix">
    <thead><tr><th scope="col">Operation</th>${statuses.map((s) => html`<th scope="col">${s}</th>`)}<th scope="col">Total</th></tr></thead>
    <tbody>${report.coverage.map(
      (row) =>
        html`<tr><th scope="row">${row.operationId} <span class="muted">${row.method} ${row.path}</span></th>${statuses.map((s) =>
          cell(row.cells.find((c) => c.status === s)),
        )}<td class="total">${grouped(row.total)}</td></tr>`,
    )}</tbody>
  </table>
  <p class="legend">Responses observed per documented status. <span class="cov-unseen-key">0</span> documented but never observed ·
  * admitted by the spec as a reasonable choice the interface does not state · † not documented for the operation · — not documented.</p>
</section>`;
}

export function trafficSection(report: ConformanceReport): SafeHtml {
  const { traffic } = report;
  return html`<section class="traffic" aria-labelledby="traffic-title">
  <h2 id="traffic-title">Traffic and rate limit</h2>
  <p>${plural(traffic.requestCount, 'request')} sent${traffic.otherRequests ? `, ${traffic.otherRequests} outside the three operations` : ''}${
    traffic.transportErrors ? `, ${plural(traffic.transportErrors, 'request')} without an answer from the target (its failures, not the budget's)` : ''
  }${traffic.retries ? `, ${plural(traffic.retries, '429')} waited out by the client's pacing (never blamed on the target)` : ''}${
    traffic.exhaustKeyRequests ? `; ${traffic.exhaustKeyRequests} of them spent the exhaustion key` : ''
  }.</p>
  ${traffic.dailyQuota ? html`<p class="quota">${dailyQuotaText(traffic.dailyQuota)}</p>` : ''}
  ${rateChart(traffic.rateLimit)}
</section>`;
}

/**
 * The embedded reference closed with the run, so its curl lines point at a closed port: the line that
 * starts the same reference (faults, variants, port) again, with $API_KEY accepted.
 */
function referenceBlock(report: ConformanceReport): SafeHtml | undefined {
  const line = referenceStartLine(report.run);
  if (line === undefined) return undefined;
  return copyBlock('Start the same reference again (the curl lines above need it; set API_KEY to any key)', line);
}

/** How the run was made, and the exact command that makes it again. */
export function runMetadata(report: ConformanceReport): SafeHtml {
  const { run } = report;
  const duration = Date.parse(run.endedAt) - Date.parse(run.startedAt);
  const rows: Array<[string, string | undefined]> = [
    ['Target', `${run.target.url}${run.target.embedded ? ' (embedded reference implementation)' : ''}`],
    ['Interface description', `version ${run.specVersion}, sha256 ${run.specSha256}`],
    ['Suite version', run.suiteVersion],
    ['Profile', run.profile],
    ['Seed', String(run.seed)],
    ['Strict', run.strict ? 'yes: SHOULD failures count' : 'no'],
    ['Read-only', run.readOnly ? 'yes: createPet never called' : 'no'],
    ['Rate-limit exhaustion', run.exhaust ? 'tested' : 'opted out'],
    ['Selection', run.only && run.only.length > 0 ? run.only.join(', ') : 'all requirements'],
    ['Shard', run.shard],
    ['Started', formatInstant(run.startedAt)],
    ['Ended', `${formatInstant(run.endedAt)}${Number.isFinite(duration) ? ` (${formatDuration(duration)})` : ''}`],
    ['Node.js', run.nodeVersion],
  ];
  return html`<section class="metadata" aria-labelledby="metadata-title">
  <h2 id="metadata-title">Run</h2>
  ${copyBlock('Reproduce this run', run.command)}
  ${referenceBlock(report)}
  <details class="run-facts"><summary>Every fact of the run (${plural(rows.filter(([, value]) => value !== undefined).length, 'line')}; the banner shows the main ones)</summary>
  <dl class="meta-grid">${rows.map(([term, value]) => when(value !== undefined, () => html`<div><dt>${term}</dt><dd>${value}</dd></div>`))}</dl>
  </details>
  <p class="muted small">The API key appears in no report: exchanges show <code>Bearer ***</code> and commands use <code>$API_KEY</code>.</p>
</section>`;
}
