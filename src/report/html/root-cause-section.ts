import type { ConformanceReport } from '../report-types.ts';
import type { RootCause } from '../root-causes.ts';
import { anchorOf, plural } from './format.ts';
import { type SafeHtml, html, when } from './safe-html.ts';

/**
 * The failures by probable cause, the one explaining the most first: a reader fixes one defect, not eleven
 * requirements. Shown only when something failed or warned.
 */
export function rootCauseSection(report: ConformanceReport, causes: readonly RootCause[]): SafeHtml | undefined {
  if (causes.length === 0) return undefined;
  return html`<section class="causes" aria-labelledby="causes-title">
  <h2 id="causes-title">What failed, by probable cause</h2>
  <p class="legend">${causeCount(report, causes)}, grouped by the response they were decided on (its operation and status) or the check that failed. Fixing the first often settles the rest${
    report.verdict.scope.untested.length > 0 ? ' and lets the untested requirements behind it run' : ''
  }.</p>
  <ol class="cause-list">${causes.map(causeItem)}</ol>
</section>`;
}

const failsOrDeviates = (r: { verdict: string }) => r.verdict === 'fail' || r.verdict === 'deviation';

/** The requirements that fail (or deviate), as the banner counts them. */
export function failingRequirements(report: ConformanceReport): ConformanceReport['requirements'] {
  return report.requirements.filter(failsOrDeviates);
}

/** The causes that explain a failure: a cause of warnings only is left out of the banner's count. */
export function failingCauses(causes: readonly RootCause[]): RootCause[] {
  return causes.filter((c) => c.requirements.some(failsOrDeviates));
}

/**
 * How many requirements the causes explain: first the failing ones with their causes, in the banner's
 * words and numbers, then, when some only warn, all of them. "8 failing requirements come down to 6
 * probable causes; with the 2 requirements that only warn, 10 requirements come down to 8 probable causes".
 */
function causeCount(report: ConformanceReport, causes: readonly RootCause[]): string {
  const failing = failingRequirements(report).length;
  const warned = causes.reduce((sum, c) => sum + c.requirements.filter((r) => r.verdict === 'warn').length, 0);
  const explained = causes.reduce((sum, c) => sum + c.requirements.length, 0);
  const comeDownTo = (n: number) => (n === 1 ? 'has' : 'come down to');
  if (failing === 0) return `${plural(warned, 'requirement')} with a warning ${comeDownTo(warned)} ${plural(causes.length, 'probable cause')}`;
  const failingLine = `${plural(failing, 'failing requirement')} ${comeDownTo(failing)} ${plural(failingCauses(causes).length, 'probable cause')}`;
  if (warned === 0) return failingLine;
  return `${failingLine}; with the ${plural(warned, 'requirement')} that only ${warned === 1 ? 'warns' : 'warn'}, ${plural(explained, 'requirement')} come down to ${plural(causes.length, 'probable cause')}`;
}

function causeItem(cause: RootCause): SafeHtml {
  const mustFails = cause.requirements.filter((r) => r.verdict === 'fail' && r.level === 'MUST').length;
  const otherFails = cause.requirements.filter((r) => (r.verdict === 'fail' && r.level !== 'MUST') || r.verdict === 'deviation').length;
  const warnings = cause.requirements.filter((r) => r.verdict === 'warn').length;
  const parts = [
    mustFails > 0 ? plural(mustFails, 'MUST failure') : '',
    otherFails > 0 ? plural(otherFails, 'other failure') : '',
    warnings > 0 ? plural(warnings, 'warning') : '',
  ].filter(Boolean);
  const tone = mustFails + otherFails > 0 ? 'fail' : 'warn';
  return html`<li class="cause cause-${tone}" data-cause="${cause.key}">
    <p class="cause-summary">${cause.summary}</p>
    ${when(cause.front !== undefined, () => html`<p class="cause-front">${cause.front ?? ''}</p>`)}
    <p class="cause-ids"><span class="cause-count">Explains ${parts.join(', ')}${cause.untested.length > 0 ? ` · leaves ${cause.untested.length} untested` : ''}:</span> ${cause.requirements.map(
      (r) => html`<a class="id-chip id-chip-${r.verdict}" href="#${anchorOf(r.id)}">${r.id}</a> `,
    )}</p>
    ${when(
      cause.untested.length > 0,
      () => html`<details class="cause-untested"><summary>${plural(cause.untested.length, 'requirement')} untested behind it (a test needed what it broke)</summary>
    <p class="cause-ids">${cause.untested.map((id) => html`<a class="id-chip id-chip-untested" href="#${anchorOf(id)}">${id}</a> `)}</p></details>`,
    )}
  </li>`;
}
