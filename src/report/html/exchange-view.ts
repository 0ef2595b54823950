import type { Exchange } from '../../client/exchange.ts';
import type { FailureDetail } from '../report-types.ts';
import { formatDuration, plural } from './format.ts';
import { type SafeHtml, html, when } from './safe-html.ts';

/** One failure: what was expected and seen, the replayable case, the exchanges and the curl line. */
export function failureView(failure: FailureDetail): SafeHtml {
  const seen =
    failure.origin === 'finding' ? `Seen by the always-on check ${failure.check ?? ''} on ${plural(failure.occurrences, 'response')}` : 'Failed test';
  return html`<div class="failure">
  <p class="failure-source">${seen} · <span class="test-name">${failure.testName}</span></p>
  ${when(failure.expected === undefined && failure.actual === undefined, () => html`<p class="failure-message">${failure.message}</p>`)}
  ${when(
    failure.expected !== undefined || failure.actual !== undefined,
    () => html`<dl class="expected-actual">
    <div class="expected"><dt>Expected</dt><dd>${failure.expected ?? '—'}</dd></div>
    <div class="actual"><dt>Actual</dt><dd>${failure.actual ?? '—'}</dd></div>
  </dl>`,
  )}
  ${failure.property ? propertyView(failure.property) : undefined}
  ${when(failure.evidenceBasis === 'last-exchanges' && failure.evidence.length > 0, () => html`<p class="evidence-note">The check named no exchange: below are the test's last ones, where it stopped.</p>`)}
  ${evidenceView(failure.evidence)}
  ${failure.curl !== undefined ? copyBlock('Reproduce with', failure.curl) : undefined}
</div>`;
}

/**
 * The deciding exchange (the last of the evidence, the one the curl line repeats) open; the others one
 * click away, so a report with many failures stays short. Print opens them all.
 */
function evidenceView(evidence: readonly Exchange[]): SafeHtml | undefined {
  const deciding = evidence.at(-1);
  if (!deciding) return undefined;
  const before = evidence.slice(0, -1);
  return html`${when(
    before.length > 0,
    () => html`<details class="more-exchanges">
    <summary>${plural(before.length, 'earlier exchange')} of this failure</summary>
    ${before.map(exchangeView)}
  </details>`,
  )}${exchangeView(deciding)}`;
}

function propertyView(property: NonNullable<FailureDetail['property']>): SafeHtml {
  return html`<div class="property">
  <p><strong>Property</strong> failed after ${plural(property.numRuns, 'case')} · seed <code>${property.seed}</code>${
    property.path ? html` · path <code>${property.path}</code>` : ''
  }${property.shrinks !== undefined ? html` · shrunk ${plural(property.shrinks, 'time')}` : ''}</p>
  ${when(property.counterexample !== undefined, () => html`<p class="label">Counterexample</p><pre class="counterexample">${property.counterexample}</pre>`)}
</div>`;
}

/** A redacted exchange, request beside response, bodies exactly as sent and received. */
export function exchangeView(exchange: Exchange): SafeHtml {
  const { request, response } = exchange;
  const requestText = [`${request.method} ${request.url}`, ...headerLines(request.headers)].join('\n');
  return html`<figure class="exchange">
  <figcaption>Exchange #${exchange.seq}${exchange.operationId ? ` · ${exchange.operationId}` : ''}${
    exchange.sharedFrom ? ` · made by ${exchange.sharedFrom}` : ''
  } · ${formatDuration(exchange.durationMs)}${exchange.retries ? ` · after ${plural(exchange.retries, 'paced 429')}` : ''}</figcaption>
  <div class="exchange-parts">
    <div class="http request"><p class="label">Request</p><pre>${requestText}${request.body !== undefined ? `\n\n${request.body}` : ''}</pre></div>
    <div class="http response"><p class="label">Response</p>${response ? responseView(response) : html`<pre class="no-response">No response: ${exchange.error ? `${exchange.error.code} ${exchange.error.message}` : 'none recorded'}</pre>`}</div>
  </div>
</figure>`;
}

function responseView(response: NonNullable<Exchange['response']>): SafeHtml {
  const head = [`HTTP ${response.status}`, ...headerLines(response.headers)].join('\n');
  const body = response.body !== undefined && response.body !== '' ? `\n\n${response.body}` : '';
  return html`<pre>${head}${body}</pre>${when(response.bodyTruncated === true, () => html`<p class="muted small">Body cut for the report.</p>`)}`;
}

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
}

/** A line to paste into a terminal, with a copy button (the script wires it; print hides it). */
export function copyBlock(label: string, text: string): SafeHtml {
  return html`<div class="copyable">
  <p class="label">${label}</p>
  <div class="copy-row"><pre class="copy-text"><code>${text}</code></pre><button type="button" class="copy" aria-label="Copy: ${label}">Copy</button></div>
</div>`;
}
