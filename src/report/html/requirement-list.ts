import type { ConformanceReport, RequirementResult, TestSummary } from '../report-types.ts';
import type { RunInfo } from '../run-info.ts';
import { copyBlock, failureView } from './exchange-view.ts';
import { VERDICT_WORDS, anchorOf, formatDuration, plural } from './format.ts';
import { type SafeHtml, html, when } from './safe-html.ts';

/** Every requirement, grouped by area, with filters and a search box (hidden until the script runs). */
export function requirementList(report: ConformanceReport): SafeHtml {
  const count = (predicate: (r: RequirementResult) => boolean) => report.requirements.filter(predicate).length;
  const failed = count((r) => r.verdict === 'fail' || r.verdict === 'deviation');
  const warnings = count((r) => r.verdict === 'warn' && !isAdvisory(r));
  // Advisories (a standard's requirements, not the interface's) are counted and filtered apart.
  const advisories = count((r) => r.verdict === 'warn' && isAdvisory(r));
  // A reader of a failing report wants the failures first; a passing one, the whole list.
  const initial = failed > 0 ? 'failed' : warnings > 0 ? 'warnings' : 'all';
  const pressed = (name: string) => String(name === initial);
  return html`<section class="requirements" aria-labelledby="requirements-title">
  <h2 id="requirements-title">Requirements</h2>
  <div class="controls" role="search">
    <div class="filters" role="group" aria-label="Show requirements" data-initial="${initial}">
      <button type="button" class="filter" data-filter="failed" aria-pressed="${pressed('failed')}">Failed <span class="badge">${failed}</span></button>
      <button type="button" class="filter" data-filter="warnings" aria-pressed="${pressed('warnings')}">Warnings <span class="badge">${warnings}</span></button>
      <button type="button" class="filter" data-filter="advisories" aria-pressed="${pressed('advisories')}" title="A standard's requirements beyond the interface: they never fail a run">Advisories <span class="badge">${advisories}</span></button>
      <button type="button" class="filter" data-filter="all" aria-pressed="${pressed('all')}">All <span class="badge">${report.requirements.length}</span></button>
    </div>
    <input type="search" id="requirement-search" class="search" placeholder="Search by id or text" aria-label="Search requirements by id or text" autocomplete="off">
    <span class="shown" id="shown-count" aria-live="polite"></span>
  </div>
  <p class="empty-result" id="empty-result" hidden>No requirement matches.</p>
  ${report.areas.map((area) => {
    const inArea = report.requirements.filter((r) => r.area === area.id);
    if (inArea.length === 0) return undefined;
    return html`<section class="area" id="area-${area.id}" aria-labelledby="area-title-${area.id}">
    <h3 id="area-title-${area.id}">${area.id} <span class="area-title">${area.title}</span></h3>
    ${inArea.map((r) => requirementItem(r, report.run))}
  </section>`;
  })}
</section>`;
}

function isAdvisory(r: RequirementResult): boolean {
  return r.level === 'ADVISORY';
}

/** The command that runs this requirement's failing tests again, from the directory of this report. */
function replayCommand(run: RunInfo, id: string): string {
  return `npx animal-store-conformance --replay conformance.json --only ${id}${run.target.embedded ? '' : ' --api-key "$API_KEY"'}`;
}

function requirementItem(r: RequirementResult, run: RunInfo): SafeHtml {
  const search = `${r.id} ${r.text} ${r.source}`.toLowerCase();
  return html`<article class="req req-${r.verdict}" id="${anchorOf(r.id)}" data-verdict="${r.verdict === 'warn' && isAdvisory(r) ? 'advisory' : r.verdict}" data-id="${r.id}" data-search="${search}">
  <div class="req-head">
    <span class="pill pill-${r.verdict}">${VERDICT_WORDS[r.verdict]}</span>
    <span class="req-id">${r.id}</span>
    <span class="level level-${r.level}">${r.level}</span>
    <div class="req-main">
      <p class="req-text">${r.text}</p>
      <p class="req-source">Source: ${r.source}${r.accepts ? html` · Accepts: ${r.accepts.join('; ')}` : ''}</p>
      ${when(r.reason !== undefined, () => html`<p class="req-reason">${r.verdict === 'deviation' ? 'Declared deviation: ' : ''}${r.reason}</p>`)}
      ${when(r.notes.length > 0, () => html`<ul class="req-notes">${r.notes.map((n) => html`<li>${n}</li>`)}</ul>`)}
    </div>
  </div>
  ${when(r.verdict !== 'deviation', () => failureEvidence(r, run))}
  ${when(r.verdict === 'deviation' && r.failures.length > 0, () => html`<details class="more-exchanges"><summary>The declared failure, as observed (${plural(r.failures.length, 'failure')})</summary>${failureEvidence(r, run)}</details>`)}
  ${when(r.omittedFailures > 0, () => html`<p class="muted">…and ${plural(r.omittedFailures, 'more distinct failure')}, not shown.</p>`)}
  ${when(r.tests.length > 0, () => testList(r.tests))}
</article>`;
}

/** Each failure with its deciding exchange, and the command that replays them. */
function failureEvidence(r: RequirementResult, run: RunInfo): SafeHtml {
  return html`${r.failures.map(failureView)}
  ${when(r.failures.length > 0, () => copyBlock('Replay only these failing cases (in the report directory)', replayCommand(run, r.id)))}`;
}

function testList(tests: readonly TestSummary[]): SafeHtml {
  const requests = tests.reduce((sum, t) => sum + t.requests, 0);
  const duration = tests.reduce((sum, t) => sum + t.durationMs, 0);
  return html`<details class="tests">
  <summary>${plural(tests.length, 'test')} · ${plural(requests, 'request')} · ${formatDuration(duration)}</summary>
  <ul>${tests.map(
    (t) =>
      html`<li><span class="state state-${t.state}">${t.state}</span> ${t.name} <span class="muted">· ${t.file} · ${plural(t.requests, 'request')} · ${formatDuration(t.durationMs)}${
        t.property ? ` · ${plural(t.property.numRuns, 'case')}, seed ${t.property.seed}` : ''
      }${t.skipReason ? ` · ${t.skipReason}` : ''}</span></li>`,
  )}</ul>
</details>`;
}
