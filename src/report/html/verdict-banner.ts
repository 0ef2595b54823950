import type { Level } from '../../catalog/catalog.ts';
import { type ConformanceReport, LEVELS, REQUIREMENT_VERDICTS } from '../report-types.ts';
import type { RootCause } from '../root-causes.ts';
import { networkText } from '../run-info.ts';
import { failingCauses, failingRequirements } from './root-cause-section.ts';
import { VERDICT_WORDS, anchorOf, formatInstant, plural } from './format.ts';
import { type SafeHtml, html, when } from './safe-html.ts';

/** The first thing a reader sees: the verdict, why, how many defects it comes down to, and which run it is. */
export function verdictBanner(report: ConformanceReport, causes: readonly RootCause[] = []): SafeHtml {
  const { run, verdict } = report;
  const failing = failingRequirements(report);
  // Causes of warnings only are in the section below, not in this line; the section's legend starts with this line's numbers.
  const causesOfFailures = failingCauses(causes);
  const facts: Array<[string, string]> = [
    ['Target', run.target.embedded ? `${run.target.url} (embedded reference)` : run.target.url],
    ['Date', formatInstant(run.endedAt)],
    ['Profile', run.profile + (run.strict ? ', strict' : '') + (run.readOnly ? ', read-only' : '')],
    ['Seed', String(run.seed)],
    ['Interface', `v${run.specVersion} · sha256 ${run.specSha256.slice(0, 12)}`],
    ['Suite', `v${run.suiteVersion}`],
    ...(run.network ? [['Network', networkText(run.network)] as [string, string]] : []),
  ];
  return html`<header class="banner banner-${verdict.overall}" role="banner">
  <p class="kicker">Animal Store interface · conformance report</p>
  <h1 class="verdict-word">${verdict.label}</h1>
  <p class="why">${verdict.why}</p>
  <p class="scope-line">${scopeLine(report)}</p>
  ${when(
    failing.length > 0 && causesOfFailures.length > 0,
    () =>
      html`<p class="cause-line">${plural(failing.length, 'failing requirement')} ${failing.length === 1 ? 'has' : 'come down to'} <a href="#causes-title">${plural(causesOfFailures.length, 'probable cause')}</a>; the first: ${causesOfFailures[0]!.summary}.</p>`,
  )}
  ${when(failing.length > 0, () => html`<p class="failing-ids">${failing.map((r) => html`<a class="id-chip id-chip-${r.verdict}" href="#${anchorOf(r.id)}">${r.id}</a> `)}</p>`)}
  <dl class="facts">${facts.map(([term, value]) => html`<div><dt>${term}</dt><dd>${value}</dd></div>`)}</dl>
</header>`;
}

/** "48 of 51 MUST requirements in scope tested": the extent of the proof, whatever the verdict. */
function scopeLine(report: ConformanceReport): string {
  const { scope } = report.verdict;
  const strict = scope.shouldInScope === undefined ? '' : `; ${scope.shouldTested ?? 0} of ${scope.shouldInScope} SHOULD (--strict)`;
  return `${scope.mustTested} of ${scope.mustInScope} MUST requirements in scope tested${strict}`;
}

/** Requirements by level × verdict; the MUST row is what the verdict rests on. */
export function countsTable(report: ConformanceReport): SafeHtml {
  const row = (level: Level) => {
    const counts = report.counts[level];
    const total = REQUIREMENT_VERDICTS.reduce((sum, v) => sum + counts[v], 0);
    return html`<tr><th scope="row">${level}</th>${REQUIREMENT_VERDICTS.map((v) =>
      counts[v] === 0 ? html`<td class="zero">·</td>` : html`<td class="count-${v}">${counts[v]}</td>`,
    )}<td class="total">${total}</td></tr>`;
  };
  return html`<section class="summary" aria-labelledby="summary-title">
  <h2 id="summary-title">Requirements by level</h2>
  <table class="counts">
    <thead><tr><th scope="col">Level</th>${REQUIREMENT_VERDICTS.map((v) => html`<th scope="col">${VERDICT_WORDS[v]}</th>`)}<th scope="col">Total</th></tr></thead>
    <tbody>${LEVELS.map(row)}</tbody>
  </table>
  <p class="legend">A MUST that fails makes the target not conformant${report.run.strict ? '; with --strict, so does a SHOULD' : '; a SHOULD that fails is a warning'}. An ADVISORY is what a standard asks beyond the interface: it warns and never fails a run, not even with --strict. Untested and partly tested requirements are neither proven nor disproven: while a MUST in scope is among them, the verdict is at best PARTIAL. Out-of-scope requirements are ones the interface does not show.</p>
</section>`;
}

/** Notes, harness errors and declared deviations: what a reader must not miss besides the verdict. */
export function runNotes(report: ConformanceReport): SafeHtml | undefined {
  const { verdict, harnessErrors, deviations } = report;
  const untested = verdict.scope.untested;
  if (verdict.notes.length === 0 && harnessErrors.length === 0 && deviations.length === 0 && untested.length === 0) return undefined;
  return html`<section class="notes" aria-labelledby="notes-title">
  <h2 id="notes-title">Before you rely on this report</h2>
  ${when(verdict.notes.length > 0, () => html`<ul class="note-list">${verdict.notes.map((n) => html`<li>${n}</li>`)}</ul>`)}
  ${when(
    untested.length > 0,
    () => html`<h3>Untested requirements in scope <span class="muted">(${untested.length}; how to cover each)</span></h3>
  <ul class="untested-list">${untested.map((u) => html`<li><a href="#${anchorOf(u.id)}">${u.id}</a> <span class="level level-${u.level}">${u.level}</span> ${u.reason} — <em>${u.cover}</em></li>`)}</ul>`,
  )}
  ${when(
    harnessErrors.length > 0,
    () => html`<h3>Harness errors <span class="muted">(the suite could not judge; not the target's fault)</span></h3>
  <ul class="harness-list">${harnessErrors.map((e) => html`<li><code>${e.code}</code> ${e.message}${e.requirementId ? html` <a href="#${anchorOf(e.requirementId)}">${e.requirementId}</a>` : ''}</li>`)}</ul>`,
  )}
  ${when(
    deviations.length > 0,
    () => html`<h3>Expected deviations declared by the implementer</h3>
  <table class="deviations"><thead><tr><th scope="col">Requirement</th><th scope="col">Reason given</th><th scope="col">In this run</th></tr></thead>
  <tbody>${deviations.map((d) => html`<tr class="dev-${d.status}"><td><a href="#${anchorOf(d.id)}">${d.id}</a></td><td>${d.reason}</td><td>${DEVIATION_STATUS[d.status]}</td></tr>`)}</tbody></table>`,
  )}
</section>`;
}

const DEVIATION_STATUS = {
  applied: 'fails, as declared',
  'requirement-passes': 'listed, but the requirement passes',
  'not-tested': 'listed, but not tested in this run',
  'unknown-requirement': 'listed, but no such requirement',
  expired: 'listed, but the entry has expired: the failure counts',
  'different-failure': 'listed, but the failure looks different: it counts',
} as const;
